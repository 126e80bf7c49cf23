import Hummingbird

/// The entity tag of a todo is its version, quoted: `"3"`.
public enum ETag {
    public static func string(for version: Int) -> String {
        "\"\(version)\""
    }
}
