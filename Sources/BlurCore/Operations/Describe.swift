/// The registry as JSON: what the WebAssembly module hands blurkit.mjs (its option checks, its
/// TypeScript declarations, the page's controls) and what `blurkit --describe` prints (a flag of
/// the tool, not a command).
///
/// Each operation is `{"name", "flag", "form", "summary", "parameters": […]}` (``BlurOperation/Form``); each parameter has its name as the
/// front end spells it (`name`), its `canonical` name and `flag`, its `kind` (`number`, `choice`,
/// `color`, `region`, `length`, `size`, `flag`), `summary`, `help` (the help line, with range and
/// default), `placeholder`, the front ends it appears in, and by kind: `minimum`, `maximum`,
/// `unit`, `integer`; `role` (``Parameter/Role``) when it is not a plain value; `words` (canonical) and `aliases` (every other word → its canonical one);
/// `fractions` and `allowsNone`. `default` is the default's value (a number for numbers, else its
/// text), absent when there is none; `defaults` gives `light` and `dark` when they differ;
/// `defaultText` says what absence means in words; `suggested` is where a control starts without a
/// default. The operation's `exclusive` lists the sets of which at most one may be given.
public enum Describe {
    /// One operation with the parameters `frontEnds` takes, names spelled as `spelling` does.
    public static func operation(_ operation: BlurOperation, in frontEnds: Parameter.FrontEnds, spelling: Parameter.Spelling) -> String {
        let parameters = operation.parameters(in: frontEnds).map { parameter($0, spelling: spelling) }
        let exclusive = operation.exclusive.map { set in
            "[" + set.compactMap { operation.parameter($0).map { quoted($0.spelled(spelling)) } }.joined(separator: ",") + "]"
        }
        return "{\"name\":\(quoted(operation.name)),\"flag\":\(quoted(operation.flag)),\"form\":\(quoted(operation.form.rawValue)),"
            + "\"summary\":\(quoted(operation.summary)),"
            + "\"parameters\":[\(parameters.joined(separator: ","))],\"exclusive\":[\(exclusive.joined(separator: ","))]"
            + (operation.data.map { ",\"data\":" + $0 } ?? "") + "}"
    }

    /// One parameter as a JSON object.
    public static func parameter(_ p: Parameter, spelling: Parameter.Spelling) -> String {
        var fields: [(String, String)] = [
            ("name", quoted(p.spelled(spelling))), ("canonical", quoted(p.name)), ("flag", quoted(p.flag)),
            ("summary", quoted(p.summary)), ("help", quoted(p.help)), ("placeholder", quoted(p.placeholder)),
        ]
        var ends: [String] = []
        if p.frontEnds.contains(.commandLine) { ends.append(quoted("commandLine")) }
        if p.frontEnds.contains(.http) { ends.append(quoted("http")) }
        if p.frontEnds.contains(.javascript) { ends.append(quoted("javascript")) }
        if p.frontEnds.contains(.scene) { ends.append(quoted("scene")) }
        fields.append(("frontEnds", "[" + ends.joined(separator: ",") + "]"))
        if p.resizes { fields.append(("resizes", "true")) }
        if p.role != .value { fields.append(("role", quoted(p.role.rawValue))) }
        func range(_ spec: ParameterSpec) {
            fields += [
                ("minimum", number(spec.range.lowerBound)), ("maximum", number(spec.range.upperBound)), ("unit", quoted(spec.unit)),
                ("integer", spec.isInteger ? "true" : "false"),
            ]
        }
        switch p.kind {
        case let .number(spec):
            fields.append(("kind", quoted("number")))
            range(spec)
        case let .choice(entries):
            fields.append(("kind", quoted("choice")))
            fields.append(("words", "[" + entries.map { quoted($0[0]) }.joined(separator: ",") + "]"))
            let aliases = entries.flatMap { entry in entry.dropFirst().map { quoted($0) + ":" + quoted(entry[0]) } }
            fields.append(("aliases", "{" + aliases.joined(separator: ",") + "}"))
        case .color:
            fields.append(("kind", quoted("color")))
            fields.append(("words", "[" + ParameterValue.Tint.words.map { quoted($0.words[0]) }.joined(separator: ",") + "]"))
            let aliases = ParameterValue.Tint.words.flatMap { entry in entry.words.dropFirst().map { quoted($0) + ":" + quoted(entry.words[0]) } }
            fields.append(("aliases", "{" + aliases.joined(separator: ",") + "}"))
            // What each word draws in each appearance (the web components resolve them themselves).
            let colors = ParameterValue.Tint.words.map { entry in
                quoted(entry.words[0]) + ":{\"light\":" + quoted(entry.tint.color(for: .light).hexString) + ",\"dark\":"
                    + quoted(entry.tint.color(for: .dark).hexString) + "}"
            }
            fields.append(("colors", "{" + colors.joined(separator: ",") + "}"))
        case .region:
            fields.append(("kind", quoted("region")))
        case let .length(fractions, allowsNone):
            fields.append(("kind", quoted("length")))
            fields.append(("fractions", "{\"minimum\":\(number(fractions.range.lowerBound)),\"maximum\":\(number(fractions.range.upperBound))}"))
            fields.append(("allowsNone", allowsNone ? "true" : "false"))
            range(VariableBlurEffect.lengthSpec)
        case let .size(spec):
            fields.append(("kind", quoted("size")))
            range(spec)
        case .flag:
            fields.append(("kind", quoted("flag")))
        case let .list(spec, most):
            fields.append(("kind", quoted("list")))
            fields.append(("most", "\(most)"))
            range(spec)
        case let .areas(most):
            fields.append(("kind", quoted("areas")))
            fields.append(("most", "\(most)"))
        }
        switch p.defaultValue {
        case let .value(v):
            fields.append(("default", value(v)))
        case let .perAppearance(light, dark):
            fields.append(("default", value(light)))
            fields.append(("defaults", "{\"light\":\(value(light)),\"dark\":\(value(dark))}"))
        case .absent:
            break
        }
        if let text = p.defaultText { fields.append(("defaultText", quoted(text))) }
        if let suggested = p.suggested { fields.append(("suggested", value(suggested))) }
        if let other = p.goesWith { fields.append(("goesWith", quoted(other))) }
        return "{" + fields.map { quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// A value as JSON: a number as a number, a flag as a boolean, anything else as its text.
    static func value(_ v: ParameterValue) -> String {
        switch v {
        case let .number(n): return number(n)
        case let .flag(on): return on ? "true" : "false"
        default: return quoted(v.text)
        }
    }

    /// A finite number in JSON's form.
    static func number(_ v: Double) -> String { formatNumber(v) }

    /// `text` as a JSON string.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for unit in text.unicodeScalars {
            switch unit {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if unit.value < 0x20 {
                    let hex = Array("0123456789abcdef".utf8)
                    out += "\\u00" + String(decoding: [hex[Int(unit.value >> 4)], hex[Int(unit.value & 15)]], as: UTF8.self)
                } else {
                    out.unicodeScalars.append(unit)
                }
            }
        }
        return out + "\""
    }
}
