import Crypto
import Foundation

/// A bearer token of an account: `todo_` and 40 random letters and digits
/// (about 238 bits). The server keeps only its SHA-256.
public enum AccessToken {
    /// What every token starts with, so one pasted in the wrong place is recognised.
    public static let prefix = "todo_"

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// A new random token.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<40).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] }
        return prefix + String(decoding: characters, as: UTF8.self)
    }

    /// What is stored and looked up: the token's SHA-256. A fast hash is
    /// enough for long random tokens, which no dictionary holds.
    public static func hash(_ token: some Sequence<UInt8>) -> Data {
        Data(SHA256.hash(data: Array(token)))
    }
}
