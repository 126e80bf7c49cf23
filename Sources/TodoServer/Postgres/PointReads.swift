import Foundation
import NIOCore
import PostgresNIO

/// Token checks, with `GET /todos/:id`'s read, gathered: the checks (of
/// any route, account or token) that arrive while others are on their way
/// to PostgreSQL go together in one statement, one round trip and one
/// connection for all of them, each answered from its own row.
///
/// A read is sent only after its request has arrived, so its statement's
/// snapshot still sees every write acknowledged before the request was
/// sent. At most `limit` statements are on their way at once; a read with
/// fewer running goes at once, alone. The server uses one: on 2 cores,
/// `get-one-account-pg` in Benchmarks/run.sh (32 connections) was 15,900
/// requests/s with one, 13,600 with two, 9,800 with four and 6,400 before
/// reads were gathered (BENCHMARKS.md). `PrefetchedReadTests` pins each
/// read's answer to the general path's, alone and in groups.
final class PointReads: Sendable {
    /// The most reads one statement takes; the rest go in the next.
    static let maxGroupSize = 128

    private let gatherer: Gatherer<Int, PointRead, PointRead.Row>

    /// `limit`: how many statements may be on their way at once.
    init(limit: Int) {
        gatherer = Gatherer(limit: limit, maxGroupSize: Self.maxGroupSize)
    }

    /// The most reads one statement has held so far (for tests).
    var largestGroup: Int { gatherer.largestGroup }

    /// `read`'s row: alone, or with the reads of the moment.
    func run(_ read: PointRead, on database: PostgresDatabase) async throws -> PointRead.Row {
        try await gatherer.run(read, key: 0) { reads in
            do {
                let rows = try await database.rows(PointReadGroup(reads))
                var byNumber: [Int64: PointRead.Row] = [:]
                byNumber.reserveCapacity(rows.count)
                for row in rows { byNumber[row.0] = row.1 }
                return reads.indices.map { index in
                    byNumber[Int64(index + 1)].map { .success($0) } ?? .failure(ServerError.databaseBusy)
                }
            } catch {
                return reads.map { _ in .failure(error) }
            }
        }
    }
}

/// One point read: the request's address, its token's hash (empty without
/// a token, which matches none), and the todo's id.
struct PointRead: Sendable {
    let address: String
    let tokenHash: ByteBuffer
    let id: String

    /// Whether accounts exist, the address's failures, the token's row, and
    /// the todo `id` of the token's account (or of the single list without a
    /// token), which the caller uses only if the check lets the request through.
    typealias Row = (Bool, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?, String?, Int?)
}

/// Point reads in one statement: a row for each, numbered from 1 in the
/// order given.
private struct PointReadGroup: PostgresPreparedStatement {
    static let sql = """
        SELECT r.n, EXISTS (SELECT 1 FROM account WHERE id <> 0),
            f.window_start, f.failures, t.id, t.account, t.expires_at, t.last_used_at, i.body::text, i.version
        FROM unnest($1::text[], $2::bytea[], $3::text[]) WITH ORDINALITY AS r(address, hash, id, n)
            LEFT JOIN auth_failure AS f ON f.address = r.address
            LEFT JOIN access_token AS t ON t.hash = r.hash
            LEFT JOIN item AS i ON i.account = coalesce(t.account, 0) AND i.id = r.id AND NOT i.deleted
        """
    typealias Row = (Int64, PointRead.Row)
    let reads: [PointRead]

    init(_ reads: [PointRead]) { self.reads = reads }

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(reads.map(\.address))
        bindings.append(reads.map(\.tokenHash))
        bindings.append(reads.map(\.id))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (n, accounts, windowStart, failures, tokenID, account, expiresAt, lastUsedAt, body, version) =
            try row.decode((Int64, Bool, Int64?, Int64?, Int64?, Int64?, Int64?, Int64?, String?, Int?).self)
        return (n, (accounts, windowStart, failures, tokenID, account, expiresAt, lastUsedAt, body, version))
    }
}
