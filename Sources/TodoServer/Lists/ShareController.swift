import Foundation
import Hummingbird

/// The routes that share lists, each acting for the request's account:
///
///     GET    /shares                 my account's name, what I share, and what is shared with me
///     PUT    /shares/LIST/MEMBER     invites MEMBER to my LIST: {"role": "editor"|"viewer"}, editor if no body;
///                                    answers {"owner", "list", "member", "role"}
///     DELETE /shares/LIST/MEMBER     ends it
///     PUT    /joined/NAME            joins a list shared with me as NAME: {"owner": "mum", "list": "shopping"}
///     DELETE /joined/NAME            leaves it
struct ShareController: Sendable {
    let shares: any AccountStore

    /// Largest body these routes read: a role, or an owner and a list.
    static let maxBodySize = 4096

    func addRoutes(to router: Router<TodoRequestContext>) {
        router.get("shares", use: list)
        router.put("shares/:list/:member", use: share)
        router.delete("shares/:list/:member", use: unshare)
        router.put("joined/:name", use: join)
        router.delete("joined/:name", use: leave)
    }

    @Sendable func list(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let account = try Self.account(context)
        let found = try await shares.shares(of: account)
        let answer = Answer(
            account: try await shares.name(of: account) ?? "",
            shared: found.shared.map { .init(list: $0.list, member: $0.member, role: $0.role.rawValue, joined: $0.joined) },
            sharedWithMe: found.withMe.map { .init(list: $0.list, owner: $0.owner, role: $0.role.rawValue, joinedAs: $0.joinedAs) }
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return .json(String(decoding: try encoder.encode(answer), as: UTF8.self))
    }

    @Sendable func share(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let account = try Self.account(context)
        let body = try await Self.object(request, optional: true)
        let role: ListRole
        switch body["role"] {
        case nil: role = .editor
        case let text as String where ListRole(rawValue: text) != nil: role = ListRole(rawValue: text)!
        default: throw ServerError.badRequest(#"The body's "role" is "editor" or "viewer"."#)
        }
        let (list, member) = (try Self.parameter("list", context), try Self.parameter("member", context))
        try await shares.share(list: list, of: account, with: member, role: role)
        // The owner's name too: what the member names in `PUT /joined`.
        let answer = ["owner": try await shares.name(of: account) ?? "", "list": list, "member": member, "role": role.rawValue]
        return .json(String(decoding: try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys]), as: UTF8.self), status: .created)
    }

    @Sendable func unshare(_ request: Request, context: TodoRequestContext) async throws -> Response {
        try await shares.unshare(list: try Self.parameter("list", context), of: try Self.account(context), with: try Self.parameter("member", context))
        return Response(status: .noContent)
    }

    @Sendable func join(_ request: Request, context: TodoRequestContext) async throws -> Response {
        let account = try Self.account(context)
        let body = try await Self.object(request, optional: false)
        guard let owner = body["owner"] as? String, let list = body["list"] as? String else {
            throw ServerError.badRequest(#"The body names the list to join: {"owner": "mum", "list": "shopping"}."#)
        }
        try await shares.join(list: list, from: owner, as: try Self.parameter("name", context), member: account)
        return Response(status: .created)
    }

    @Sendable func leave(_ request: Request, context: TodoRequestContext) async throws -> Response {
        try await shares.leave(try Self.parameter("name", context), member: try Self.account(context))
        return Response(status: .noContent)
    }

    // MARK: - Reading requests

    /// The request's account: lists are shared between accounts, never the single list.
    private static func account(_ context: TodoRequestContext) throws -> AccountID {
        guard context.account != .single else { throw ShareRefusal.needsAccounts }
        return context.account
    }

    private static func parameter(_ name: String, _ context: TodoRequestContext) throws -> String {
        guard let raw = context.parameters.get(name), let decoded = raw.removingPercentEncoding else {
            throw ServerError.badRequest("The URL's \(name) is not valid percent-encoded text.")
        }
        return decoded
    }

    /// The body's JSON object; an empty one when `optional` and none was sent.
    private static func object(_ request: Request, optional: Bool) async throws -> [String: Any] {
        let bytes = try await RequestBody.read(request, maxBodySize: maxBodySize)
        if bytes.isEmpty, optional { return [:] }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw ServerError.badRequest("The body is not a JSON object.")
        }
        return object
    }

    /// `GET /shares`'s answer.
    private struct Answer: Encodable {
        struct Shared: Encodable {
            let list: String, member: String, role: String, joined: Bool
        }

        struct WithMe: Encodable {
            let list: String, owner: String, role: String
            let joinedAs: String?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(list, forKey: .list)
                try container.encode(owner, forKey: .owner)
                try container.encode(role, forKey: .role)
                try container.encode(joinedAs, forKey: .joinedAs)
            }

            enum CodingKeys: String, CodingKey { case list, owner, role, joinedAs }
        }

        let account: String
        let shared: [Shared]
        let sharedWithMe: [WithMe]
    }
}
