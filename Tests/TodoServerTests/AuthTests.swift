import Hummingbird
import HummingbirdTesting
import Testing
@testable import TodoServer

/// `--token`: every request needs `Authorization: Bearer TOKEN`.
struct AuthTests {
    let options = ServerOptions(token: "s3cret", requestLogLevel: .trace)

    @Test(arguments: Backend.allCases)
    func withoutTheRightTokenEveryRequestIs401(_ backend: Backend) async throws {
        try await withServer(backend, options: options) { client in
            for headers: HTTPFields in [[:], [.authorization: "Bearer wrong"], [.authorization: "Bearer s3cre"], [.authorization: "s3cret"],
                [.authorization: "Basic czNjcmV0"], [.authorization: "Bearer s3cretX"]]
            {
                for (method, uri) in [(HTTPRequest.Method.get, "/todos"), (.post, "/todos"), (.get, "/nowhere"), (.get, "/health")] {
                    let response = try await client.send(method, uri, method == .post ? "{}" : nil, headers: headers)
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.wwwAuthenticate] == "Bearer")
                    #expect(response.errorMessage?.contains("Authorization: Bearer") == true)
                }
            }
            #expect(try await client.send(.get, "/todos").status == .unauthorized)
        }
    }

    @Test(arguments: Backend.allCases)
    func withTheTokenRequestsGoThrough(_ backend: Backend) async throws {
        try await withServer(backend, options: options) { client async throws in
            let auth: HTTPFields = [.authorization: "Bearer s3cret"]
            #expect(try await client.send(.post, "/todos", #"{"id":"a"}"#, headers: auth).status == .created)
            #expect(try await client.send(.get, "/todos/a", headers: auth).status == .ok)
        }
    }

    @Test(arguments: Backend.allCases)
    func failuresAreCountedAndThrottledAsWithAccounts(_ backend: Backend) async throws {
        try await withTestDatabase(backend) { [options] repository, accounts in
            try await makeApp(repository, accounts: accounts, options: options).test(.router) { client in
                for _ in 0..<AuthThrottle.maxFailures {
                    #expect(try await client.send(.get, "/todos", headers: [.authorization: "Bearer wrong"]).status == .unauthorized)
                }
                let refused = try await client.send(.get, "/todos", headers: [.authorization: "Bearer wrong"])
                #expect(refused.status == .tooManyRequests)
                #expect(refused.headers[.retryAfter] == "60")
                // The right token is served all the while.
                #expect(try await client.send(.get, "/todos", headers: [.authorization: "Bearer s3cret"]).status == .ok)
            }
        }
    }

    @Test func tokenComparisonIsExact() {
        let token = Array("s3cret".utf8)
        #expect(BearerTokenMiddleware.constantTimeEquals(token, token))
        for guess in ["", "s", "s3cre", "s3cret ", "S3cret", "s3cres", "s3crets3cret"] {
            #expect(!BearerTokenMiddleware.constantTimeEquals(Array(guess.utf8), token))
        }
    }
}
