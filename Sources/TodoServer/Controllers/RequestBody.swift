import Hummingbird
import NIOCore

/// A request's body, read whole up to a limit: every route that reads one reads it so.
enum RequestBody {
    /// The body's bytes: 413 past the size limit, 400 if its framing is broken.
    static func read(_ request: Request, maxBodySize: Int) async throws -> [UInt8] {
        let tooLarge = ServerError(.contentTooLarge, "The request body is larger than the limit of \(maxBodySize) bytes.")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maxBodySize {
            throw tooLarge
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBodySize)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw tooLarge
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            // The body stream failed: NIO's parser refused its framing (a bad
            // chunk size, say). The client sent it; the connection closes after.
            throw ServerError(.badRequest, "The request body could not be read: its framing is not valid HTTP/1.1 (\(error)).", headers: [.connection: "close"])
        }
        return Array(buffer.readableBytesView)
    }
}
