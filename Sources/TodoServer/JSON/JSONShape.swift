/// What the server needs to know of a JSON value to check a todo: its type,
/// and for the values an id can take, the value itself.
///
/// The body's text, not this value, is what gets stored, so numbers keep
/// their exact text (`1e999` included) and nested values are only checked.
enum JSONShape: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number written as an integer (no fraction, no exponent) that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case number
    case string(String)
    case array
    /// An object; its top-level members are read only for the body itself.
    case object

    /// The name a client would use for this type, for error messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
