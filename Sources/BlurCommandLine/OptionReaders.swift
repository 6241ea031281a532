import BlurCore
import BlurIO

/// Readers for the options whose values have a form of their own. Each names the option in its
/// error, lists the accepted forms, and checks numbers against their parameter table.
extension ParsedArguments {
    /// `--NAME X,Y,W,H` in points; nil when absent. Width and height must be positive.
    public func region(_ name: String) throws(ParameterError) -> Rect? {
        guard let text = values[name] else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmed }
        let form = "X,Y,W,H in points with a positive width and height"
        guard parts.count == 4 else { throw .invalidForm(name: name, text: text, expected: form) }
        var numbers: [Double] = []
        for part in parts {
            guard let value = try? Rect.coordinateSpec.named(name).parse(part) else { throw .invalidForm(name: name, text: text, expected: form) }
            numbers.append(value)
        }
        guard numbers[2] > 0, numbers[3] > 0 else { throw .invalidForm(name: name, text: text, expected: form) }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// `--NAME WxH` in points, each inside `spec`; nil when absent.
    public func size(_ name: String, _ spec: ParameterSpec) throws(ParameterError) -> (width: Double, height: Double)? {
        guard let text = values[name] else { return nil }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map(String.init)
        let bounds = "\(formatNumber(spec.range.lowerBound))…\(formatNumber(spec.range.upperBound)) \(spec.unit)"
        guard parts.count == 2, let w = try? spec.named(name).parse(parts[0]), let h = try? spec.named(name).parse(parts[1]) else {
            throw .invalidForm(name: name, text: text, expected: "WxH with each side \(bounds)")
        }
        return (w, h)
    }

    /// `--NAME 40`, `40pt` (points, ``VariableBlurEffect/lengthSpec``) or `25%` (of the view's size,
    /// as a fraction inside `fractions`); nil when absent. `none` is for the caller to handle first
    /// (`allowsNone` only adds it to the error's list of forms).
    public func length(_ name: String, fractions: ParameterSpec, allowsNone: Bool = false) throws(ParameterError) -> GradientSizing? {
        guard var text = values[name] else { return nil }
        let original = text, relative = text.hasSuffix("%")
        if relative { text.removeLast() } else if text.lowercased().hasSuffix("pt") { text.removeLast(2) }
        let points = VariableBlurEffect.lengthSpec
        let form =
            "a length in points (\(formatNumber(points.range.lowerBound))…\(formatNumber(points.range.upperBound)), as 40 or 40pt) "
            + (allowsNone ? "" : "or ")
            + "a percentage of the view (\(formatNumber(fractions.range.lowerBound * 100))…\(formatNumber(fractions.range.upperBound * 100))%)"
            + (allowsNone ? " or none" : "")
        guard let value = parseDecimal(text) else { throw .invalidForm(name: name, text: original, expected: form) }
        do {
            if relative { return .relative(fraction: try fractions.named(name).validate(value / 100)) }
            return .absolute(position: try points.named(name).validate(value))
        } catch {
            throw .invalidForm(name: name, text: original, expected: form)
        }
    }

    /// `--NAME COLOR`: `#RRGGBB`, `#RRGGBBAA`, `white`, `black`, `none` or `background` (the system
    /// background: white in light, black in dark). Absent: `fallback`. `.some(nil)` is `none`.
    public func tint(_ name: String, default fallback: DynamicColor?) throws(ParameterError) -> DynamicColor? {
        guard let text = values[name] else { return fallback }
        switch text.lowercased() {
        case "background": return .systemBackground
        case "none": return nil
        case "white": return DynamicColor(.white)
        case "black": return DynamicColor(.black)
        default:
            guard let color = Color(hex: text) else {
                throw .invalidForm(name: name, text: text, expected: "#RRGGBB, #RRGGBBAA, white, black, none or background")
            }
            return DynamicColor(color)
        }
    }
}

extension OptionSpec {
    /// `--NAME X,Y,W,H`, checked by ``ParsedArguments/region(_:)``.
    public static func region(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, value: "X,Y,W,H", help: help) { (text: String) throws(ParameterError) in
            _ = try ParsedArguments(values: [name: text]).region(name)
        }
    }

    /// `--NAME WxH`, each side inside `spec`, checked by ``ParsedArguments/size(_:_:)``.
    public static func size(_ spec: ParameterSpec, help: String) -> OptionSpec {
        OptionSpec(name: spec.name, value: "WxH", help: help) { (text: String) throws(ParameterError) in
            _ = try ParsedArguments(values: [spec.name: text]).size(spec.name, spec)
        }
    }

    /// `--NAME LEN` (points or a percentage inside `fractions`, or `none` when `allowsNone`), checked
    /// by ``ParsedArguments/length(_:fractions:allowsNone:)``.
    public static func length(_ name: String, fractions: ParameterSpec, allowsNone: Bool = false, help: String) -> OptionSpec {
        OptionSpec(name: name, value: "LEN", help: help) { (text: String) throws(ParameterError) in
            if allowsNone && text.lowercased() == "none" { return }
            _ = try ParsedArguments(values: [name: text]).length(name, fractions: fractions, allowsNone: allowsNone)
        }
    }

    /// `--NAME COLOR`, checked by ``ParsedArguments/tint(_:default:)``.
    public static func tint(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, value: "COLOR", help: help) { (text: String) throws(ParameterError) in
            _ = try ParsedArguments(values: [name: text]).tint(name, default: nil)
        }
    }
}

extension ParsedArguments {
    /// The format of a still output: `--format`, else OUT's suffix. Checked before any work,
    /// together with OUT's folder, so that a mistake costs nothing.
    public func stillFormat(for output: String) throws -> ImageFormat {
        if let format = try choice(ImageFormat.spec) {
            if output != "-" { try OutputPath.checkFolder(of: output) }
            return format
        }
        guard output != "-" else {
            throw CLIError.usage("writing to standard output needs --format (\(ImageFormat.spec.words.joined(separator: ", ")))")
        }
        guard let format = ImageFormat(path: output) else {
            throw CLIError.usage(FileError.unknownOutputFormat(path: output).description)
        }
        try OutputPath.checkFolder(of: output)
        return format
    }

    /// The format of an animated output: `--format`, else OUT's suffix (a folder for PNG frames).
    /// An animation cannot go to standard output.
    public func animationFormat(for output: String) throws -> AnimationFormat {
        guard output != "-" else {
            throw CLIError.usage("an animation cannot be written to standard output; give a file (.webp .gif .png .apng) or a folder for PNG frames")
        }
        let format: AnimationFormat
        if let named = try choice(AnimationFormat.spec) {
            format = named
        } else {
            guard let bySuffix = AnimationFormat(path: output) else {
                throw CLIError.usage("OUT must end in .webp, .gif, .png or .apng, or name a folder for PNG frames, got \(output)")
            }
            format = bySuffix
        }
        // A folder of frames is made (with its parents) when the writer starts, before any frame.
        if format != .pngSequence { try OutputPath.checkFolder(of: output) }
        return format
    }
}

/// Checks on an output path made before the work.
public enum OutputPath {
    /// Throws unless the folder that will hold the file `path` exists.
    public static func checkFolder(of path: String) throws(FileError) {
        guard !path.isEmpty else { throw .cannotWrite(path: path, reason: "no file name given") }
        guard let slash = path.lastIndex(of: "/") else { return }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        guard AtomicFile.isFolder(folder) else { throw .cannotWrite(path: path, reason: "the folder \(folder) does not exist") }
    }
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
