/// What one connection may send before any handler runs: the sizes NIO's
/// HTTP/1 parser accepts before the server answers 431, and the time a
/// request head may take. Each bounds what a client can make the server hold.
public enum HTTPLimits {
    /// The request line (method, path and query) or one header field, in bytes.
    public static let maxHeaderFieldSize = 8 * 1024
    /// The request line and all header fields together, in bytes.
    public static let maxHeaderListSize = 32 * 1024
    /// Header fields in one request.
    public static let maxHeaderFieldCount = 100
    /// Time a request head may take to arrive, from its first bytes.
    public static let defaultHeaderTimeout: Duration = .seconds(10)
}
