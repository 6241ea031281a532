/// One parameter of an operation, declared once for every front end that takes it.
///
/// Its ``name`` is the canonical one: the JavaScript option and the scene-file key. The command
/// line's flag and the HTTP query name are ``flag`` (derived from the name, kebab-case, unless given).
/// The ``kind`` says which of the shared parsers reads it, and therefore its forms, range, aliases
/// and messages; the ``defaultValue`` is what an absent parameter means, printed by every front end
/// from here.
public struct Parameter: Sendable {
    /// The forms a parameter's value takes; each has one parser (``parse(_:as:)``).
    public enum Kind: Sendable {
        /// A decimal number inside the spec's range (whole when the spec is), in its unit.
        case number(ParameterSpec)
        /// One of a few words, any case; each entry's first word is canonical, the others aliases.
        case choice([[String]])
        /// A colour: `#RGB`, `#RRGGBB`, `#RRGGBBAA`, `white`, `black`, `none` or `background`.
        case color
        /// `X,Y,W,H` in points, width and height positive; checked against the image when it runs.
        case region
        /// Points (`40`, `40pt`) inside ``VariableBlurEffect/lengthSpec`` or a percentage of the view
        /// (`25%`) inside `fractions`; `none` too when `allowsNone`.
        case length(fractions: ParameterSpec, allowsNone: Bool)
        /// `WxH`, each side inside the spec.
        case size(ParameterSpec)
        /// Present or not: `1`, `true` or nothing for yes, `0` or `false` for no.
        case flag
        /// Numbers separated by commas (`640,1280,1920`), each inside the spec, from one to `most`.
        case list(ParameterSpec, most: Int)
        /// Areas of a privacy blur (``BlurArea``), separated by `;`, from one to `most`.
        case areas(most: Int)
    }

    /// What an absent parameter means.
    public enum Default: Sendable {
        /// This value.
        case value(ParameterValue)
        /// One value in light appearance, another in dark (BlurUIKit's dimming).
        case perAppearance(light: ParameterValue, dark: ParameterValue)
        /// No value: the words say what absence means (`the whole image`), or nil when required or
        /// when another parameter stands in (σ or radius).
        case absent(String?)
    }

    /// Where a parameter appears. An operation's parameters appear in all front ends unless said.
    public struct FrontEnds: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        /// A front-end set from its bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `blurkit COMMAND --flag`.
        public static let commandLine = FrontEnds(rawValue: 1)
        /// A query parameter of the HTTP routes (and so the playground's controls).
        public static let http = FrontEnds(rawValue: 2)
        /// An option of the WebAssembly module's function (`blurkit.mjs`, `blurkit.d.ts`).
        public static let javascript = FrontEnds(rawValue: 4)
        /// A key of the scene file's object for the effect.
        public static let scene = FrontEnds(rawValue: 8)
        /// Every front end.
        public static let all: FrontEnds = [.commandLine, .http, .javascript, .scene]
    }

    /// What a parameter is to generic front-end code beyond its kind, so that such code finds it
    /// by its role and never by its name: the playground hides the encoders' settings, the service
    /// reads the format it answers in, and every front end reads the point scale and appearance
    /// an effect is drawn at from the parameters the effect itself declares.
    public enum Role: String, Sendable, Hashable {
        /// A value of the operation's own.
        case value
        /// Light or dark: ``EffectContext/appearance``.
        case appearance
        /// Pixels per point of the image: radii and regions are in points.
        case pointScale
        /// The output's format (a still's or an animation's).
        case format
        /// A setting of the output's encoder (quality, compression, loop count).
        case encoding
    }

    /// How a front end spells a parameter's name in its messages.
    public enum Spelling: Sendable, Hashable {
        /// `--max-radius`.
        case commandLine
        /// `max-radius`.
        case query
        /// `maximumBlurRadius` (JavaScript options and scene keys).
        case key
    }

    /// The canonical name: the JavaScript option and the scene key (`maximumBlurRadius`).
    public let name: String
    /// The command-line flag without its dashes and the query name (`max-radius`).
    public let flag: String
    /// Its forms and the parser that reads them.
    public let kind: Kind
    /// What leaving it out means.
    public let defaultValue: Default
    /// One line for help texts and documentation, without range or default (they are added from here).
    public let summary: String
    /// The value's placeholder in usage lines (`R`, `DIR`).
    public let placeholder: String
    /// The front ends that take it.
    public let frontEnds: FrontEnds
    /// Where a control starts when the parameter has no default (σ 8 for a blur); nil: empty.
    public var suggested: ParameterValue?
    /// The canonical name of the parameter this one means something beside (scale beside a radius,
    /// not beside σ); nil: none. The playground turns its control off without it.
    public var goesWith: String?
    /// True for the resize's parameters (on `resize` and, resizing first, on every effect): they
    /// change the image's size, which a surface of the WebAssembly module cannot.
    public var resizes = false
    /// What it is to generic front-end code; ``Role/value`` unless declared.
    public var role = Role.value

    /// A parameter as given; `flag` defaults to the name in kebab-case.
    @inline(never)
    public init(
        _ name: String, flag: String? = nil, kind: Kind, default defaultValue: Default, summary: String, placeholder: String,
        in frontEnds: FrontEnds = .all
    ) {
        self.name = name
        self.flag = flag ?? kebabCase(name)
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
        self.placeholder = placeholder
        self.frontEnds = frontEnds
        self.suggested = nil
        self.goesWith = nil
        self.resizes = false
        self.role = .value
    }

    /// This parameter with `role` (``role``).
    @inline(never)
    public func with(role: Role) -> Parameter {
        var copy = self
        copy.role = role
        return copy
    }

    /// This parameter, meaningful beside `other` only (``goesWith``).
    @inline(never)
    public func going(with other: Parameter) -> Parameter {
        var copy = self
        copy.goesWith = other.name
        return copy
    }

    /// This parameter with a control's starting value (``suggested``).
    @inline(never)
    public func suggesting(_ value: ParameterValue) -> Parameter {
        var copy = self
        copy.suggested = value
        return copy
    }

    /// A number parameter from its spec: range, unit, whole-ness, summary and default come from it.
    @inline(never)
    public init(
        _ name: String, flag: String? = nil, number spec: ParameterSpec, default defaultValue: Default? = nil, placeholder: String,
        in frontEnds: FrontEnds = .all
    ) {
        self.init(
            name, flag: flag, kind: .number(spec), default: defaultValue ?? spec.defaultValue.map { .value(.number($0)) } ?? .absent(nil),
            summary: spec.summary, placeholder: placeholder, in: frontEnds)
    }

    /// A choice parameter from its spec: words, aliases, summary and default come from it.
    @inline(never)
    public init<T>(_ name: String, flag: String? = nil, choice spec: ChoiceSpec<T>, placeholder: String, in frontEnds: FrontEnds = .all) {
        self.init(
            name, flag: flag, kind: .choice(spec.choices.map { $0.words }),
            default: spec.defaultValue.flatMap(spec.word(for:)).map { .value(.word($0)) } ?? .absent(nil), summary: spec.summary,
            placeholder: placeholder, in: frontEnds)
    }

    /// The name as `spelling` writes it.
    public func spelled(_ spelling: Spelling) -> String {
        switch spelling {
        case .commandLine: return "--" + flag
        case .query: return flag
        case .key: return name
        }
    }

    /// The canonical words of a choice (each entry's first), empty for other kinds.
    public var words: [String] {
        guard case let .choice(entries) = kind else { return [] }
        return entries.map { $0[0] }
    }

    /// Every word a choice takes, aliases included, canonical first in each entry.
    public var allWords: [String] {
        guard case let .choice(entries) = kind else { return [] }
        return entries.flatMap { $0 }
    }
}

/// `maximumBlurRadius` → `maximum-blur-radius`.
func kebabCase(_ name: String) -> String {
    // ASCII only: names are ASCII, and Unicode's case tables would weigh on the WebAssembly module.
    var out: [UInt8] = []
    for c in name.utf8 {
        if c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") {
            out += [UInt8(ascii: "-"), c + 32]
        } else {
            out.append(c)
        }
    }
    return String(decoding: out, as: UTF8.self)
}
