/// Why SVG path data could not be read.
public enum PathSyntaxError: Error, Equatable, CustomStringConvertible {
    /// A character that is neither a supported command nor part of a number, at a character offset.
    case unexpected(Character, offset: Int)
    /// A command without enough numbers after it.
    case missingNumbers(command: Character, offset: Int)
    /// Numbers before the first command.
    case noCommand

    /// The error as one line of text, with the character offset, for messages.
    public var description: String {
        switch self {
        case let .unexpected(c, offset):
            "unexpected \"\(c)\" at character \(offset) (supported: M L H V C S Q T Z, upper or lower case)"
        case let .missingNumbers(command, offset): "\"\(command)\" at character \(offset) needs more numbers"
        case .noCommand: "path data must start with a command such as M"
        }
    }
}

extension Path {
    /// Parses SVG path data (`"M 0 0 L 10 0 C 20 0 20 10 10 10 Z"`): moves, lines, horizontal and
    /// vertical lines, cubic and quadratic curves with their smooth forms, close; absolute (upper
    /// case) or relative (lower case); numbers separated by spaces or commas. Elliptical arcs (`A`)
    /// are not supported. Non-finite numbers are rejected.
    public init(svg data: String) throws(PathSyntaxError) {
        self.init()
        let chars = Array(data)
        var i = 0
        var command: Character?
        var commandOffset = 0
        var current = Point(0, 0), subpathStart = Point(0, 0)
        var lastControl: Point?  // for S/T reflection
        var lastWasCubic = false, lastWasQuad = false

        func skipSeparators() { while i < chars.count, chars[i] == " " || chars[i] == "," || chars[i].isNewline || chars[i] == "\t" { i += 1 } }
        func number() -> Double? {
            skipSeparators()
            let start = i
            if i < chars.count, chars[i] == "+" || chars[i] == "-" { i += 1 }
            var digits = false, dot = false
            // swift-format-ignore
            while i < chars.count {
                if chars[i].isASCII, chars[i].isNumber { digits = true; i += 1 }
                else if chars[i] == ".", !dot { dot = true; i += 1 }
                else { break }
            }
            if digits, i < chars.count, chars[i] == "e" || chars[i] == "E" {
                var j = i + 1
                if j < chars.count, chars[j] == "+" || chars[j] == "-" { j += 1 }
                if j < chars.count, chars[j].isASCII, chars[j].isNumber {
                    i = j
                    while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
                }
            }
            guard digits, let value = Double(String(chars[start..<i])), value.isFinite else { i = start; return nil }
            return value
        }
        func numbers(_ count: Int) throws(PathSyntaxError) -> [Double] {
            var values: [Double] = []
            for _ in 0..<count {
                guard let v = number() else { throw .missingNumbers(command: command ?? "?", offset: commandOffset) }
                values.append(v)
            }
            return values
        }
        func startsNumber() -> Bool {
            skipSeparators()
            guard i < chars.count else { return false }
            let c = chars[i]
            return c == "-" || c == "+" || c == "." || (c.isASCII && c.isNumber)
        }

        while true {
            skipSeparators()
            guard i < chars.count else { break }
            if !startsNumber() {
                let c = chars[i]
                guard "MmLlHhVvCcSsQqTtZz".contains(c) else { throw .unexpected(c, offset: i) }
                command = c; commandOffset = i; i += 1
            } else if command == nil {
                throw .noCommand
            }
            guard let c = command else { throw .noCommand }
            let relative = c.isLowercase
            let base = relative ? current : Point(0, 0)
            var cubic = false, quad = false
            switch c.uppercased() {
            case "M":
                let v = try numbers(2)
                current = base + Point(v[0], v[1]); subpathStart = current
                move(to: current)
                command = relative ? "l" : "L"  // later pairs are lines
            case "L":
                let v = try numbers(2)
                current = base + Point(v[0], v[1]); addLine(to: current)
            case "H":
                let v = try numbers(1)
                current = Point(relative ? current.x + v[0] : v[0], current.y); addLine(to: current)
            case "V":
                let v = try numbers(1)
                current = Point(current.x, relative ? current.y + v[0] : v[0]); addLine(to: current)
            case "C", "S":
                let smooth = c.uppercased() == "S"
                let v = try numbers(smooth ? 4 : 6)
                let c1 = smooth ? (lastWasCubic ? current * 2 - lastControl! : current) : base + Point(v[0], v[1])
                let c2 = base + Point(v[smooth ? 0 : 2], v[smooth ? 1 : 3])
                let end = base + Point(v[smooth ? 2 : 4], v[smooth ? 3 : 5])
                addCurve(to: end, control1: c1, control2: c2)
                lastControl = c2; current = end; cubic = true
            case "Q", "T":
                let smooth = c.uppercased() == "T"
                let v = try numbers(smooth ? 2 : 4)
                let control = smooth ? (lastWasQuad ? current * 2 - lastControl! : current) : base + Point(v[0], v[1])
                let end = base + Point(v[smooth ? 0 : 2], v[smooth ? 1 : 3])
                addQuadCurve(to: end, control: control)
                lastControl = control; current = end; quad = true
            default:  // Z
                closeSubpath(); current = subpathStart
                command = nil
            }
            lastWasCubic = cubic; lastWasQuad = quad
        }
    }
}
