/// How a run of text is drawn.
public struct TextStyle: Sendable, Hashable {
    public enum Color: Sendable, Hashable {
        case red, green, yellow, cyan

        var code: Int {
            switch self {
            case .red: 31
            case .green: 32
            case .yellow: 33
            case .cyan: 36
            }
        }
    }

    public var color: Color?
    public var bold = false
    public var dim = false
    /// Swapped foreground and background: how the selected row stands out.
    public var reverse = false

    public init(color: Color? = nil, bold: Bool = false, dim: Bool = false, reverse: Bool = false) {
        self.color = color
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
    }

    public static let plain = TextStyle()

    /// The SGR escape sequence for this style, from a reset; colours only if
    /// `usesColor` (bold, dim and reverse are not colours, and stay).
    func escape(usesColor: Bool) -> String {
        var codes: [Int] = [0]
        if bold { codes.append(1) }
        if dim { codes.append(2) }
        if reverse { codes.append(7) }
        if usesColor, let color { codes.append(color.code) }
        return "\u{1B}[" + codes.map(String.init).joined(separator: ";") + "m"
    }
}
