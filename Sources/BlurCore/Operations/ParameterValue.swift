/// A parameter's value once its parser has read and checked it.
public enum ParameterValue: Sendable, Hashable {
    /// A number inside the parameter's range.
    case number(Double)
    /// A choice's canonical word (whatever alias or case was given).
    case word(String)
    /// A colour parameter's value.
    case color(Tint)
    /// A region in points.
    case region(Rect)
    /// A length; nil for `none`.
    case length(GradientSizing?)
    /// A width and height in the parameter's unit.
    case size(width: Double, height: Double)
    /// A flag's state.
    case flag(Bool)
    /// Numbers, in the order given (a ``Parameter/Kind/list(_:most:)``).
    case list([Double])
    /// Areas, in the order given (a ``Parameter/Kind/areas(most:)``).
    case areas([BlurArea])

    /// What a colour parameter names.
    public enum Tint: Sendable, Hashable {
        /// No colour (`none`).
        case none
        /// The system background: white in light appearance, black in dark (`background`).
        case background
        /// One colour in both appearances.
        case color(Color)

        /// The colour words of every front end (the command line, HTTP, JavaScript options and scene
        /// files), each with its aliases, and what they name; any ASCII case.
        public static let words: [(words: [String], tint: Tint)] = [
            (["none", "clear"], .none), (["background", "systemBackground"], .background), (["white"], .color(.white)),
            (["black"], .color(.black)), (["gray", "grey"], .color(Color(white: 0.5))),
        ]

        /// `text` as a colour: one of ``words``, or hex digits (`#RGB`, `#RRGGBB`, `#RRGGBBAA`, the
        /// `#` optional) — the one colour parser of every front end.
        /// - Throws: ``ParameterError/invalidForm(name:text:expected:)`` naming `name`.
        public init(parsing text: String, name: String) throws(ParameterError) {
            if let entry = ParameterValue.Tint.words.first(where: { $0.words.contains { text.sameBytes(ignoringASCIICase: $0) } }) {
                self = entry.tint
                return
            }
            guard let color = Color(hex: text) else { throw .invalidForm(name: name, text: text, expected: Parameter.colorForms) }
            self = .color(color)
        }

        /// The colour in `appearance`: clear for ``none``, the system background's colour for ``background``.
        public func color(for appearance: Appearance) -> Color {
            switch self {
            case .none: return .clear
            case .background: return appearance.backgroundColor
            case let .color(c): return c
            }
        }

        /// The tint a dynamic colour is: ``none`` for nil, ``background`` for the system
        /// background, else its light colour.
        public init(_ color: DynamicColor?) {
            switch color {
            case nil: self = .none
            case .systemBackground?: self = .background
            case let c?: self = .color(c.light)
            }
        }

        /// As a dynamic colour; nil for ``none``.
        public var dynamicColor: DynamicColor? {
            switch self {
            case .none: return nil
            case .background: return .systemBackground
            case let .color(c): return DynamicColor(c)
            }
        }
    }

    /// A size's two sides.
    public struct Dimensions: Sendable, Hashable {
        /// The first side (`W` of `WxH`).
        public var width: Double
        /// The second side.
        public var height: Double
        /// A size as given.
        public init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }
    }

    /// The value in the form the parsers read (`25%`, `#FF8800`, `0,0,100,40`): what help texts,
    /// documentation and the generated front ends print.
    public var text: String { written(exactly: false) }

    /// The value as ``text`` writes it but with every number in full (the shortest text that reads
    /// back as the same double): two values have the same exact text only when they are equal, so
    /// it keys caches and ETags (``text`` rounds to six decimals, and 100 and 100.0000001 looked alike).
    public var exactText: String { written(exactly: true) }

    /// `v` in full: a whole number without a point, else the shortest text that reads back as `v`.
    private static func fullText(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }

    private func written(exactly: Bool) -> String {
        func number(_ v: Double) -> String { exactly ? ParameterValue.fullText(v) : formatNumber(v) }
        switch self {
        case let .number(v): return number(v)
        case let .word(w): return w
        case .color(.none): return "none"
        case .color(.background): return "background"
        case let .color(.color(c)): return c.hexString
        case let .region(r): return [r.x, r.y, r.width, r.height].map(number).joined(separator: ",")
        case .length(nil): return "none"
        case let .length(.absolute(position)?): return number(position)
        case let .length(.relative(fraction)?): return exactly ? number(fraction) + " of the size" : number(fraction * 100) + "%"
        case let .size(w, h): return number(w) + "x" + number(h)
        case let .list(values): return values.map(number).joined(separator: ",")
        case let .flag(on): return on ? "true" : "false"
        case let .areas(areas): return areas.map { $0.written(number) }.joined(separator: ";")
        }
    }
}

extension Parameter {
    /// `text` read as this parameter's kind and checked; errors name the parameter as `spelling` writes it.
    @_optimize(size)
    public func parse(_ text: String, as spelling: Spelling) throws(ParameterError) -> ParameterValue {
        let name = spelled(spelling)
        switch kind {
        case let .number(spec):
            return .number(try spec.named(name).parse(text))
        case let .choice(entries):
            return .word(entries[try ChoiceSpec<Int>.index(of: text, among: entries, name: name)][0])
        case .color:
            return .color(try ParameterValue.Tint(parsing: text, name: name))
        case .region:
            return .region(try Parameter.region(text, name: name))
        case let .length(fractions, allowsNone):
            if allowsNone && text.sameBytes(ignoringASCIICase: "none") { return .length(nil) }
            return .length(try Parameter.length(text, name: name, fractions: fractions, allowsNone: allowsNone))
        case let .size(spec):
            let parts = text.utf8.split(omittingEmptySubsequences: false) { asciiLowercased($0) == UInt8(ascii: "x") }
                .map { String(decoding: $0, as: UTF8.self) }
            let side = spec.named(name)
            guard parts.count == 2, let w = try? side.parse(parts[0]), let h = try? side.parse(parts[1]) else {
                throw .invalidForm(name: name, text: text, expected: "WxH with each side \(Parameter.bounds(spec))")
            }
            return .size(width: w, height: h)
        case .flag:
            if text.isEmpty || text.sameBytes(as: "1") || text.sameBytes(ignoringASCIICase: "true") { return .flag(true) }
            if text.sameBytes(as: "0") || text.sameBytes(ignoringASCIICase: "false") { return .flag(false) }
            throw .invalidForm(name: name, text: text, expected: "1, true, 0 or false (or nothing, for true)")
        case let .list(spec, most):
            let item = spec.named(name)
            let parts = text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard parts.count <= most, let values = try? parts.map({ (part) throws(ParameterError) in try item.parse(part) }) else {
                throw .invalidForm(name: name, text: text, expected: Parameter.listForms(spec, most: most))
            }
            return .list(values)
        case let .areas(most):
            return .areas(try BlurArea.parse(text, name: name, most: most))
        }
    }

    /// The forms a colour takes, as messages and help list them.
    public static let colorForms =
        "#RGB, #RRGGBB or #RRGGBBAA (the # may be left out), or " + wordsAndAliases(ParameterValue.Tint.words.map { $0.words })

    /// `a, b (or c, d) or e`: each entry's canonical word, its aliases after it.
    static func wordsAndAliases(_ entries: [[String]]) -> String {
        listing(entries.map { $0.count > 1 ? "\($0[0]) (or \($0.dropFirst().joined(separator: ", ")))" : $0[0] })
    }

    /// `lo…hi unit`.
    static func bounds(_ spec: ParameterSpec) -> String {
        "\(formatNumber(spec.range.lowerBound))…\(formatNumber(spec.range.upperBound))" + (spec.unit.isEmpty ? "" : " \(spec.unit)")
    }

    /// `X,Y,W,H` in points, width and height positive.
    static func region(_ text: String, name: String) throws(ParameterError) -> Rect {
        let range = Rect.coordinateSpec.range
        let form =
            "X,Y,W,H in points with a positive width and height, each number from \(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound))"
        let parts = text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self).trimmingSpaces
        }
        guard parts.count == 4 else { throw .invalidForm(name: name, text: text, expected: form) }
        var numbers: [Double] = []
        for part in parts {
            guard let value = try? Rect.coordinateSpec.named(name).parse(part) else { throw .invalidForm(name: name, text: text, expected: form) }
            numbers.append(value)
        }
        guard numbers[2] > 0, numbers[3] > 0 else { throw .invalidForm(name: name, text: text, expected: form) }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// The forms a length takes, as messages and help list them.
    public static func lengthForms(fractions: ParameterSpec, allowsNone: Bool) -> String {
        let points = VariableBlurEffect.lengthSpec.range
        return "points (\(formatNumber(points.lowerBound))…\(formatNumber(points.upperBound)), as 40 or 40pt)"
            + (allowsNone ? ", " : " or ")
            + "a percentage of the view (\(formatNumber(fractions.range.lowerBound * 100))…\(formatNumber(fractions.range.upperBound * 100))%)"
            + (allowsNone ? " or none" : "")
    }

    /// `40`, `40pt` or `25%`.
    static func length(_ text: String, name: String, fractions: ParameterSpec, allowsNone: Bool) throws(ParameterError) -> GradientSizing {
        let relative = text.endsWithBytes(of: "%")
        let digits = String(decoding: text.utf8.dropLast(relative ? 1 : text.endsWithBytes(of: "pt", ignoringASCIICase: true) ? 2 : 0), as: UTF8.self)
        let form = lengthForms(fractions: fractions, allowsNone: allowsNone)
        guard let value = parseDecimal(digits) else { throw .invalidForm(name: name, text: text, expected: form) }
        if relative {
            guard let fraction = try? fractions.validate(value / 100) else { throw .invalidForm(name: name, text: text, expected: form) }
            return .relative(fraction: fraction)
        }
        guard let points = try? VariableBlurEffect.lengthSpec.validate(value) else { throw .invalidForm(name: name, text: text, expected: form) }
        return .absolute(position: points)
    }

    /// What absence means, in words: the default's text, both appearances', or the absent words.
    public var defaultText: String? {
        switch defaultValue {
        case let .value(v): return v.text
        case let .perAppearance(light, dark): return "\(light.text) light, \(dark.text) dark"
        case let .absent(words): return words
        }
    }

    /// The default for `appearance` as a value, if there is one.
    public func defaultValue(for appearance: Appearance) -> ParameterValue? {
        switch defaultValue {
        case let .value(v): return v
        case let .perAppearance(light, dark): return appearance == .dark ? dark : light
        case .absent: return nil
        }
    }

    /// The help line: the summary, the forms or range, and the default, all from the table.
    public var help: String {
        let fallback = defaultText.map { "default \($0)" }
        switch kind {
        case let .number(spec):
            return "\(summary) (\(Parameter.bounds(spec))\(fallback.map { ", " + $0 } ?? ""))"
        case let .choice(entries):
            return "\(summary): \(Parameter.wordsAndAliases(entries))\(fallback.map { " (" + $0 + ")" } ?? "")"
        case .color:
            return "\(summary): \(Parameter.colorForms)\(fallback.map { " (" + $0 + ")" } ?? "")"
        case .region:
            return "\(summary), X,Y,W,H in points\(fallback.map { " (" + $0 + ")" } ?? "")"
        case let .length(fractions, allowsNone):
            return "\(summary): \(Parameter.lengthForms(fractions: fractions, allowsNone: allowsNone))\(fallback.map { " (" + $0 + ")" } ?? "")"
        case let .size(spec):
            return "\(summary), WxH with each side \(Parameter.bounds(spec))\(fallback.map { " (" + $0 + ")" } ?? "")"
        case .flag:
            return summary
        case let .list(spec, most):
            return "\(summary), \(Parameter.listForms(spec, most: most))\(fallback.map { " (" + $0 + ")" } ?? "")"
        case let .areas(most):
            return "\(summary): up to \(most) \(BlurArea.forms)\(fallback.map { " (" + $0 + ")" } ?? "")"
        }
    }

    /// `1 to 8 numbers separated by commas, each …`, as help and messages say a list.
    static func listForms(_ spec: ParameterSpec, most: Int) -> String {
        "1 to \(most) numbers separated by commas, each \(bounds(spec))"
    }
}

extension Color {
    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque; upper-case digits.
    public var hexString: String {
        func byte(_ v: Double) -> String {
            let b = Int((min(1, max(0, v)) * 255).rounded())
            let digits = Array("0123456789ABCDEF".utf8)
            return String(decoding: [digits[b >> 4], digits[b & 15]], as: UTF8.self)
        }
        return "#" + byte(red) + byte(green) + byte(blue) + (alpha < 1 ? byte(alpha) : "")
    }
}

extension String {
    /// Without leading and trailing spaces.
    var trimmingSpaces: String {
        let bytes = Array(utf8)
        var start = 0, end = bytes.count
        while start < end, bytes[start] == UInt8(ascii: " ") { start += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
