/// A JSON document as read by ``JSONValue/parse(_:)``: RFC 8259, objects keep their key order,
/// numbers are `Double`. Nesting deeper than 200 levels is refused (no stack overflow on hostile
/// input).
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.number(x), .number(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.map(\.key) == y.map(\.key) && x.map(\.value) == y.map(\.value)
        default: false
        }
    }

    /// How the value reads in an error message: `"wide"`, `12`, `an object`.
    var summary: String {
        switch self {
        case .null: "null"
        case let .bool(b): String(b)
        case let .number(n): n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case let .string(s): "\"" + (s.count > 40 ? String(s.prefix(40)) + "…" : s) + "\""
        case .array: "an array"
        case .object: "an object"
        }
    }

    static let maximumDepth = 200

    static func parse(_ bytes: [UInt8]) throws(SceneFileError) -> JSONValue {
        var parser = Parser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.at == bytes.count else { throw parser.error("unexpected text after the document") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var at = 0

        func error(_ message: String) -> SceneFileError {
            var line = 1, column = 1
            for b in bytes[..<min(at, bytes.count)] { if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 } }
            return .syntax(line: line, column: column, message: message)
        }

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }

        mutating func value(depth: Int) throws(SceneFileError) -> JSONValue {
            guard depth < JSONValue.maximumDepth else { throw error("nested more than \(JSONValue.maximumDepth) levels deep") }
            guard at < bytes.count else { throw error("the document ends where a value was expected") }
            switch bytes[at] {
            case UInt8(ascii: "{"):
                at += 1
                var members: [(key: String, value: JSONValue)] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
                    let keyStart = at
                    let key = try string()
                    if members.contains(where: { $0.key == key }) { at = keyStart; throw error("the key \"\(key)\" appears twice in one object") }
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
                    at += 1
                    skipSpace()
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard at < bytes.count else { throw error("the document ends inside an object") }
                    if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                    if bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
                    throw error("expected ',' or '}' in an object")
                }
            case UInt8(ascii: "["):
                at += 1
                var items: [JSONValue] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard at < bytes.count else { throw error("the document ends inside an array") }
                    if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                    if bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
                    throw error("expected ',' or ']' in an array")
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default:
                return .number(try number())
            }
        }

        mutating func literal(_ word: String, _ value: JSONValue) throws(SceneFileError) -> JSONValue {
            let w = Array(word.utf8)
            guard at + w.count <= bytes.count, Array(bytes[at..<(at + w.count)]) == w else { throw error("unexpected text; expected a value") }
            at += w.count
            return value
        }

        mutating func number() throws(SceneFileError) -> Double {
            let start = at
            func digits() -> Int { let s = at; while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }; return at - s }
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard digits() > 0 else { at = start; throw error("unexpected text; expected a value") }
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                at += 1
                guard digits() > 0 else { throw error("expected digits after the decimal point") }
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
                at += 1
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
                guard digits() > 0 else { throw error("expected digits in the exponent") }
            }
            guard let value = Double(String(decoding: bytes[start..<at], as: UTF8.self)), value.isFinite else {
                at = start
                throw error("the number is out of range")
            }
            return value
        }

        mutating func string() throws(SceneFileError) -> String {
            at += 1  // opening quote
            var out: [UInt8] = []
            while true {
                guard at < bytes.count else { throw error("the document ends inside a string") }
                let b = bytes[at]
                at += 1
                switch b {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard at < bytes.count else { throw error("the document ends inside a string") }
                    let e = bytes[at]
                    at += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar), at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"),
                            bytes[at + 1] == UInt8(ascii: "u")
                        {
                            at += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw error("invalid surrogate pair") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                        out += Array(String(Character(u)).utf8)
                    default:
                        throw error("invalid escape \\\(Character(Unicode.Scalar(e)))")
                    }
                case 0x00..<0x20:
                    throw error("a control character inside a string")
                default:
                    out.append(b)
                }
            }
        }

        mutating func hex4() throws(SceneFileError) -> UInt32 {
            guard at + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[at..<(at + 4)], as: UTF8.self), radix: 16) else {
                throw error("expected four hex digits after \\u")
            }
            at += 4
            return v
        }
    }
}
