import BlurCore
import BlurIO
import Foundation

/// A scene described in JSON (`docs/scene-format.md`): its size, background, layer tree and
/// animations, plus the recording defaults it asks for. Errors name the value's path and what was
/// expected (`layers[2].frame.width: expected a number, got "wide"`); unknown keys are errors, so
/// a typo never passes silently.
public struct SceneFile {
    /// The scene the file describes, its layers built and its animations applied.
    public let scene: Scene
    /// Layers by their `name`, for code that animates a loaded scene further.
    public let layers: [String: Layer]
    /// Pixels per point the file asks for (nil: 1).
    public let scale: Double?
    /// Seconds of animation the file asks for (nil: up to the end of its last animation).
    public let duration: Double?
    /// Frames per second the file asks for (nil: 30).
    public let frameRate: Double?

    /// When the last animation ends (delay and duration included; springs until they settle).
    public let lastAnimationEnd: Double
    /// Bytes the decoded images hold (4 a pixel): memory a render of the scene holds throughout.
    public let imageBytes: Int

    /// The most bytes a scene file may hold: 1 MiB (a hand-written scene is a few KB; parsing takes
    /// tens of bytes of memory for each byte of JSON, so the file's size bounds the parse's).
    public static let maximumBytes = 1 << 20
    /// The most layers a scene may have, nested ones counted: 10,000.
    public static let maximumLayers = 10_000

    /// The bytes of the scene file at `path`, at most ``maximumBytes`` (its size is checked first:
    /// a larger file throws ``SceneFileError/overBudget(path:message:)``; one that cannot be read, a
    /// `FileError`).
    public static func bytes(at path: String) throws -> [UInt8] {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > maximumBytes {
            throw SceneFileError.overBudget(
                path: "(document)", message: "the scene file holds \(info.st_size) bytes, over the \(maximumBytes) a scene may")
        }
        return try AtomicFile.read(path, atMost: maximumBytes)
    }

    /// Reads a scene file; relative image paths are resolved against its folder.
    public static func read(_ path: String, operations: [BlurOperation] = BlurOperation.effects) throws -> SceneFile {
        let bytes = try bytes(at: path)
        return try parse(bytes, baseDirectory: (path as NSString).deletingLastPathComponent, operations: operations)
    }

    /// Parses scene JSON; images are read from `baseDirectory` when their paths are relative, or
    /// given by `imageLoader` (called with the path as written in the file) when there is one.
    /// `operations` are the effects a backdrop may name, each by its name with an object of its
    /// scene parameters (`BlurOperation.effects` by default).
    public static func parse(
        _ bytes: [UInt8], baseDirectory: String = ".", imageLoader: ((String) throws -> Bitmap)? = nil,
        operations: [BlurOperation] = BlurOperation.effects
    ) throws(SceneFileError) -> SceneFile {
        guard bytes.count <= maximumBytes else {
            throw .overBudget(path: "(document)", message: "the scene file holds \(bytes.count) bytes, over the \(maximumBytes) a scene may")
        }
        var reader = Reader(baseDirectory: baseDirectory, loader: imageLoader, operations: operations)
        return try reader.document(Node(value: try JSONValue.parse(bytes), path: ""))
    }
}

/// A JSON value and where it is in the document.
private struct Node {
    let value: JSONValue
    let path: String

    func child(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    func object(_ known: [String]) throws(SceneFileError) -> Members {
        guard case let .object(members) = value else {
            throw .type(path: path.isEmpty ? "(document)" : path, expected: "an object", got: value.summary)
        }
        for (key, _) in members where !known.contains(key) {
            throw .unknownKey(path: child(key), known: known)
        }
        return Members(members: members, node: self)
    }

    /// A number inside `spec`'s range (and whole, for an integer spec).
    func number(_ spec: ParameterSpec) throws(SceneFileError) -> Double {
        guard case let .number(n) = value else { throw .type(path: path, expected: "a number", got: value.summary) }
        do { return try spec.validate(n) } catch {
            throw .invalid(
                path: path,
                message:
                    "must be from \(formatNumber(spec.range.lowerBound)) to \(formatNumber(spec.range.upperBound))\(spec.unit.isEmpty ? "" : " " + spec.unit)\(spec.isInteger ? ", a whole number" : ""), got \(value.summary)"
            )
        }
    }

    /// One of `spec`'s words, in any case.
    func choice<T>(_ spec: ChoiceSpec<T>) throws(SceneFileError) -> T {
        let name = try string()
        do { return try spec.parse(name) } catch {
            throw .invalid(path: path, message: "expected one of \(spec.words.joined(separator: ", ")), got \(value.summary)")
        }
    }

    /// A colour string as every front end reads it, errors at this path.
    func tint() throws(SceneFileError) -> ParameterValue.Tint {
        let text = try string()
        do { return try ParameterValue.Tint(parsing: text, name: "colour") } catch {
            throw .invalid(path: path, message: "expected a colour (\(Parameter.colorForms)), got \(value.summary)")
        }
    }

    /// A string read by `parameter`'s own parser (its words, forms and ranges), errors at this path.
    func parsed(_ parameter: Parameter) throws(SceneFileError) -> ParameterValue {
        let text = try string()
        do { return try parameter.parse(text, as: .key) } catch {
            throw .invalid(path: path, message: error.description)
        }
    }

    func string() throws(SceneFileError) -> String {
        guard case let .string(s) = value else { throw .type(path: path, expected: "a string", got: value.summary) }
        return s
    }

    func bool() throws(SceneFileError) -> Bool {
        guard case let .bool(b) = value else { throw .type(path: path, expected: "true or false", got: value.summary) }
        return b
    }

    func array() throws(SceneFileError) -> [Node] {
        guard case let .array(items) = value else { throw .type(path: path, expected: "an array", got: value.summary) }
        return items.enumerated().map { Node(value: $1, path: "\(path)[\($0)]") }
    }

    /// `[x, y, width, height]` or `{"x":…, "y":…, "width":…, "height":…}`; sizes ≥ 0.
    func rect() throws(SceneFileError) -> Rect {
        if case .array = value {
            let items = try array()
            guard items.count == 4 else { throw .type(path: path, expected: "[x, y, width, height]", got: "\(items.count) numbers") }
            return Rect(
                x: try items[0].number(Layer.positionSpec), y: try items[1].number(Layer.positionSpec),
                width: try items[2].number(Layer.lengthSpec), height: try items[3].number(Layer.lengthSpec))
        }
        let o = try object(["x", "y", "width", "height"])
        return Rect(
            x: try o.required("x").number(Layer.positionSpec), y: try o.required("y").number(Layer.positionSpec),
            width: try o.required("width").number(Layer.lengthSpec), height: try o.required("height").number(Layer.lengthSpec))
    }

    /// `[x, y]`.
    func point() throws(SceneFileError) -> (x: Double, y: Double) {
        let items = try array()
        guard items.count == 2 else { throw .type(path: path, expected: "[x, y]", got: "\(items.count) numbers") }
        return (try items[0].number(Layer.positionSpec), try items[1].number(Layer.positionSpec))
    }

    /// A colour in `appearance`: a string in the colour vocabulary of every front end
    /// (`ParameterValue.Tint(parsing:name:)`: hex, `white`, `black`, `gray`, `clear` or `none`,
    /// `background` or `systemBackground`), or `{"red", "green", "blue", "alpha"}` /
    /// `{"white", "alpha"}` with values 0…1.
    func color(_ appearance: Appearance = .light) throws(SceneFileError) -> Color {
        if case .string = value { return try tint().color(for: appearance) }
        guard case .object = value else {
            throw .type(path: path, expected: "a colour (\"#RRGGBB\" or {\"red\", \"green\", \"blue\"})", got: value.summary)
        }
        let o = try object(["red", "green", "blue", "white", "alpha"])
        let alpha = try o.optional("alpha")?.number(Color.componentSpec) ?? 1
        if let white = o.optional("white") {
            try o.forbid(["red", "green", "blue"], because: "with \"white\"")
            return Color(white: try white.number(Color.componentSpec), alpha: alpha)
        }
        return Color(
            red: try o.required("red").number(Color.componentSpec), green: try o.required("green").number(Color.componentSpec),
            blue: try o.required("blue").number(Color.componentSpec), alpha: alpha)
    }
}

private struct Members {
    let members: [(key: String, value: JSONValue)]
    let node: Node

    func optional(_ key: String) -> Node? {
        members.first(where: { $0.key == key }).map { Node(value: $0.value, path: node.child(key)) }
    }

    func required(_ key: String) throws(SceneFileError) -> Node {
        guard let n = optional(key) else { throw .missing(path: node.child(key)) }
        return n
    }

    /// An error when `key` is present: it does not go with what else is given.
    func forbid(_ keys: [String], because reason: String) throws(SceneFileError) {
        for key in keys where optional(key) != nil { throw .invalid(path: node.child(key), message: "not allowed \(reason)") }
    }

    /// The one key present out of `keys`.
    func oneOf(_ keys: [String]) throws(SceneFileError) -> (String, Node) {
        let present = keys.compactMap { k in optional(k).map { (k, $0) } }
        guard present.count == 1 else {
            throw .invalid(
                path: node.path,
                message: present.isEmpty
                    ? "expected one of \(keys.joined(separator: ", "))"
                    : "only one of \(keys.joined(separator: ", ")) may be given")
        }
        return present[0]
    }
}

private struct Reader {
    let baseDirectory: String
    let loader: ((String) throws -> Bitmap)?
    /// The effects a backdrop may name (`BlurOperation.effects` unless the caller adds its own).
    let operations: [BlurOperation]
    var layers: [String: Layer] = [:]
    var images: [String: Bitmap] = [:]
    /// Layers read so far, nested ones counted.
    var layerCount = 0
    /// The document's appearance: what `background` and `{"light", "dark"}` values resolve to.
    var appearance = Appearance.light

    init(baseDirectory: String, loader: ((String) throws -> Bitmap)?, operations: [BlurOperation]) {
        self.baseDirectory = baseDirectory
        self.loader = loader
        self.operations = operations
    }

    mutating func document(_ root: Node) throws(SceneFileError) -> SceneFile {
        let o = try root.object(["width", "height", "scale", "background", "appearance", "duration", "fps", "layers", "animations"])
        appearance = try o.optional("appearance")?.choice(Appearance.spec) ?? .light
        let scene = Scene(
            width: try o.required("width").number(Scene.sizeSpec), height: try o.required("height").number(Scene.sizeSpec),
            backgroundColor: try o.optional("background")?.color(appearance) ?? .white)
        scene.appearance = appearance
        let scale = try o.optional("scale")?.number(Scene.scaleSpec)
        let duration = try o.optional("duration")?.number(SceneRecording.durationSpec)
        let fps = try o.optional("fps")?.number(SceneRecording.frameRateSpec)
        for node in try o.optional("layers")?.array() ?? [] { scene.addLayer(try layer(node)) }
        var end = 0.0
        for node in try o.optional("animations")?.array() ?? [] { end = max(end, try animation(node, in: scene)) }
        return SceneFile(
            scene: scene, layers: layers, scale: scale, duration: duration, frameRate: fps, lastAnimationEnd: end,
            imageBytes: images.values.reduce(0) { $0 + $1.width * $1.height * 4 })
    }

    mutating func layer(_ node: Node) throws(SceneFileError) -> Layer {
        layerCount += 1
        guard layerCount <= SceneFile.maximumLayers else {
            throw .overBudget(path: node.path, message: "more than \(SceneFile.maximumLayers) layers, the most a scene may have")
        }
        let o = try node.object([
            "name", "frame", "content", "backgroundColor", "opacity", "cornerRadius", "masksToBounds",
            "blendMode", "blurRadius", "backdrop", "mask", "sublayers",
        ])
        let name = try o.optional("name")?.string() ?? ""
        let layer = Layer(name: name, frame: try o.required("frame").rect())
        if !name.isEmpty {
            guard layers[name] == nil else { throw .invalid(path: node.child("name"), message: "another layer is already called \"\(name)\"") }
            layers[name] = layer
        }
        if let c = o.optional("content") { layer.content = try content(c) }
        if let c = o.optional("backgroundColor") { layer.backgroundColor = try c.color(appearance) }
        if let v = o.optional("opacity") { layer.opacity = try v.number(Layer.opacitySpec) }
        if let v = o.optional("cornerRadius") { layer.cornerRadius = try v.number(Layer.cornerRadiusSpec) }
        if let v = o.optional("masksToBounds") { layer.masksToBounds = try v.bool() }
        if let v = o.optional("blendMode") { layer.blendMode = try v.choice(BlendMode.spec) }
        if let v = o.optional("blurRadius") { layer.blurRadius = try v.number(Layer.blurRadiusSpec) }
        if let b = o.optional("backdrop") { try backdrop(b, of: layer) }
        if let m = o.optional("mask") { layer.mask = try self.layer(m) }
        for sub in try o.optional("sublayers")?.array() ?? [] { layer.addSublayer(try self.layer(sub)) }
        return layer
    }

    mutating func content(_ node: Node) throws(SceneFileError) -> Layer.Content {
        let gravity = ResizeOperation.gravity.parameter.spelled(.key)
        let o = try node.object(["color", "image", "mode", gravity, "gradient", "shape", "fill", "reflection"])
        let (kind, value) = try o.oneOf(["color", "image", "gradient", "shape", "reflection"])
        if kind != "image" { try o.forbid(["mode", gravity], because: "with \"\(kind)\" (it goes with \"image\")") }
        if kind != "shape" { try o.forbid(["fill"], because: "with \"\(kind)\" (it goes with \"shape\")") }
        switch kind {
        case "color":
            return .color(try value.color(appearance))
        case "image":
            let mode = try o.optional("mode")?.choice(ContentMode.spec) ?? ContentMode.spec.defaultValue!
            let crop = try o.optional(gravity)?.choice(ResizeGravity.spec) ?? ResizeGravity.spec.defaultValue!
            return .bitmap(try image(value), mode: mode, gravity: crop)
        case "gradient":
            let g = try value.object(["colors", "from", "to", "start", "end"])
            var colors: [Color] = []
            if let list = g.optional("colors") {
                try g.forbid(["from", "to"], because: "with \"colors\"")
                for c in try list.array() { colors.append(try c.color(appearance)) }
                guard colors.count >= 2 else { throw .invalid(path: list.path, message: "a gradient needs at least two colours") }
            } else {
                colors = [try g.required("from").color(appearance), try g.required("to").color(appearance)]
            }
            return .linearGradient(
                colors: colors, start: try g.optional("start")?.point() ?? (0.5, 0), end: try g.optional("end")?.point() ?? (0.5, 1))
        case "shape":
            return .shape(try shape(value), fill: try o.required("fill").color(appearance))
        default:
            let r = try value.object(["image", "alpha", "hidden", "maximumBlurRadius"])
            var settings = Layer.Reflection(isHidden: try r.optional("hidden")?.bool() ?? false)
            if let a = r.optional("alpha") { settings.alpha = try a.number(ReflectionEffect.alphaSpec) }
            if let m = r.optional("maximumBlurRadius") { settings.blur.maximumBlurRadius = try m.number(VariableBlurEffect.maximumRadiusSpec) }
            return .reflection(try image(r.required("image")), settings)
        }
    }

    func shape(_ node: Node) throws(SceneFileError) -> Path {
        let o = try node.object(["rect", "roundedRect", "cornerRadius", "ellipse", "path"])
        let (kind, value) = try o.oneOf(["rect", "roundedRect", "ellipse", "path"])
        if kind != "roundedRect" { try o.forbid(["cornerRadius"], because: "with \"\(kind)\" (it goes with \"roundedRect\")") }
        switch kind {
        case "rect": return Path(rect: try value.rect())
        case "roundedRect": return Path(roundedRect: try value.rect(), cornerRadius: try o.required("cornerRadius").number(Layer.cornerRadiusSpec))
        case "ellipse": return Path(ellipseIn: try value.rect())
        default:
            do { return try Path(svg: try value.string()) } catch let error as PathSyntaxError {
                throw .invalid(path: value.path, message: error.description)
            } catch let error as SceneFileError { throw error } catch { throw .invalid(path: value.path, message: "\(error)") }
        }
    }

    mutating func image(_ node: Node) throws(SceneFileError) -> Bitmap {
        let name = try node.string()
        let file = name.hasPrefix("/") ? name : (baseDirectory as NSString).appendingPathComponent(name)
        if let cached = images[file] { return cached }
        do {
            let bitmap = try loader.map { try $0(name) } ?? ImageFile.read(file)
            images[file] = bitmap
            return bitmap
        } catch let error as BudgetError {
            throw .overBudget(path: node.path, message: error.description)
        } catch let error as DecodingError where error.isLimit {
            throw .overBudget(path: node.path, message: "\(file): \(error)")
        } catch RecordingError.cancelled {
            throw .cancelled
        } catch let error as FileError {
            throw .image(path: node.path, file: file, message: "\(error)")
        } catch {
            throw .image(path: node.path, file: file, message: "\(file): \(error)")
        }
    }

    /// `{"NAME": {…}}`: an effect of ``operations`` by its name, with an object of its scene
    /// parameters read by their kinds (the generic form, drawn over the layer's frame); or one of
    /// the two short forms the components' own backdrops take, `{"blur": R}` (a radius in points)
    /// and `{"material": STYLE, "blurEffectRadius": R, "dimmingAlpha": A}`, whose radius and
    /// dimming the layer animates.
    func backdrop(_ node: Node, of layer: Layer) throws(SceneFileError) {
        let names = operations.filter { !$0.parameters(in: .scene).isEmpty || Reader.shortForms.contains($0.name) }.map(\.name)
        let siblings = [Reader.radiusKey, Reader.dimmingKey]
        let o = try node.object(names + siblings)
        let (name, value) = try o.oneOf(names)
        let operation = operations.first { $0.name == name }!
        // A short form's operation without scene keys of its own (the blur) takes its number only.
        let keyless = operation.parameters(in: .scene).isEmpty
        if case .object = value.value, !keyless {
            try o.forbid(siblings, because: "beside an object (give them inside it)")
            guard let run = operation.image else { throw .invalid(path: value.path, message: "\(name) does not draw over a backdrop") }
            let arguments = try self.arguments(of: operation, value)
            do { layer.backdropFilter = BackdropEffect(arguments: arguments, prepared: try run.prepare(arguments)) } catch {
                throw .invalid(path: value.path, message: error.description)
            }
            return
        }
        switch value.value {
        case .number where name == GaussianBlurOperation.name:
            try o.forbid([Reader.dimmingKey], because: "with \"\(name)\" (it goes with \"\(MaterialOperation.name)\")")
            // The radius beside it, when given, is the radius the blur starts from.
            let radius = try value.number(Layer.backdropRadiusSpec)
            layer.backdropFilter = .blur(radius: try o.optional(Reader.radiusKey)?.number(Layer.backdropRadiusSpec) ?? radius)
        case .string where name == MaterialOperation.name:
            var material = Material(style: try value.choice(MaterialStyle.spec))
            if let r = o.optional(Reader.radiusKey) { material.blurEffectRadius = try r.number(Material.radiusSpec) }
            if let d = o.optional(Reader.dimmingKey) { material.dimmingAlpha = try d.number(Material.dimmingSpec) }
            layer.backdropFilter = .material(material)
        default:
            let forms =
                keyless
                ? "a radius in points ({\"\(name)\": R})"
                : name == MaterialOperation.name ? "a style's name or an object of \(name)'s parameters" : "an object of \(name)'s parameters"
            throw .type(path: value.path, expected: forms, got: value.value.summary)
        }
    }

    /// The operations with a short form, and the keys beside it: the blur's (a number) and the
    /// material's (a style's name).
    static let shortForms = [GaussianBlurOperation.name, MaterialOperation.name]
    /// The animatable radius beside a short form.
    static let radiusKey = MaterialOperation.blurEffectRadius.name
    /// The animatable dimming beside the material's short form.
    static let dimmingKey = MaterialOperation.dimmingAlpha.name

    /// An object of `operation`'s scene parameters, each read by its kind: numbers as numbers (or
    /// null for 0, or `{"light", "dark"}` for one per appearance where the default has one),
    /// words as strings, colours in any scene form (null: none), lengths as strings,
    /// `{"relative": f}` / `{"absolute": pt}` or null, regions as `[x, y, width, height]`, sizes as
    /// `[width, height]`, flags as booleans (null: off); any as the text the other front ends take.
    func arguments(of operation: BlurOperation, _ node: Node) throws(SceneFileError) -> OperationArguments {
        let parameters = operation.parameters(in: .scene)
        let o = try node.object(parameters.map(\.name))
        var values: [String: ParameterValue] = [:]
        for parameter in parameters {
            guard let v = o.optional(parameter.name) else { continue }
            if case .string = v.value, parameter.kind.readsText {
                values[parameter.name] = try v.parsed(parameter)
                continue
            }
            switch (parameter.kind, v.value) {
            case let (.number(spec), .number):
                values[parameter.name] = .number(try v.number(spec))
            case let (.number(spec), .null) where spec.range.contains(0):
                values[parameter.name] = .number(0)
            case let (.number(spec), .object):
                // (`fallthrough` here would run the next case's body, not the default's.)
                guard case .perAppearance = parameter.defaultValue else { throw Reader.mismatch(v, for: parameter) }
                let a = try v.object(["light", "dark"])
                values[parameter.name] = .number(try a.required(appearance.rawValue).number(spec))
                _ = try a.required(appearance == .light ? "dark" : "light").number(spec)
            case (.color, .null):
                values[parameter.name] = .color(.none)
            case (.color, .object):
                values[parameter.name] = .color(.color(try v.color(appearance)))
            case (.length, .null):
                values[parameter.name] = .length(nil)
            case let (.length(fractions, _), .object):
                values[parameter.name] = .length(try sizing(v, fractions: fractions))
            case (.region, .array):
                values[parameter.name] = .region(try v.rect())
            case let (.size(spec), .array):
                let items = try v.array()
                guard items.count == 2 else { throw .type(path: v.path, expected: "[width, height]", got: "\(items.count) numbers") }
                values[parameter.name] = .size(width: try items[0].number(spec), height: try items[1].number(spec))
            case (.flag, .bool):
                values[parameter.name] = .flag(try v.bool())
            case (.flag, .null):
                values[parameter.name] = .flag(false)
            case (.areas, .array):
                // One area a string: the command line's text, each in its own element.
                var texts: [String] = []
                for item in try v.array() {
                    let text = try item.string()
                    guard text.utf8.contains(where: { $0 != UInt8(ascii: " ") }), !text.utf8.contains(UInt8(ascii: ";")) else {
                        throw .type(path: item.path, expected: "one area as a string (no ;)", got: item.value.summary)
                    }
                    texts.append(text)
                }
                values[parameter.name] = try Node(value: .string(texts.joined(separator: ";")), path: v.path).parsed(parameter)
            default:
                throw Reader.mismatch(v, for: parameter)
            }
        }
        // At most one of each exclusive set, as every front end reads it (direction or angle).
        for set in operation.exclusive {
            let given = set.filter { values[$0] != nil }
            if given.count > 1 { throw .invalid(path: node.path, message: ParameterError.conflict(names: given).description) }
        }
        return OperationArguments(operation: operation, values: values, spelling: .key)
    }

    /// The error for `node`, a value of a form `parameter` does not take: the forms it takes.
    static func mismatch(_ node: Node, for parameter: Parameter) -> SceneFileError {
        var forms = parameter.kind.sceneForms
        if case let .number(spec) = parameter.kind, spec.range.contains(0) {
            if case .perAppearance = parameter.defaultValue { forms += ", null or {\"light\", \"dark\"}" } else { forms += " or null" }
        }
        return .type(path: node.path, expected: forms, got: node.value.summary)
    }

    /// `{"relative": 0.5}` (a fraction of the size) or `{"absolute": 40}` (points); null for none.
    func sizing(_ node: Node, fractions: ParameterSpec) throws(SceneFileError) -> GradientSizing? {
        if case .null = node.value { return nil }
        let o = try node.object(["relative", "absolute"])
        let (kind, value) = try o.oneOf(["relative", "absolute"])
        return kind == "relative"
            ? .relative(fraction: try value.number(fractions)) : .absolute(position: try value.number(VariableBlurEffect.lengthSpec))
    }

    /// Applies one animation; returns when it ends.
    func animation(_ node: Node, in scene: Scene) throws(SceneFileError) -> Double {
        let o = try node.object(["at", "duration", "delay", "curve", "layer", "set"])
        let at = try o.optional("at")?.number(Animation.timeSpec) ?? 0
        let duration = try o.optional("duration")?.number(Animation.durationSpec) ?? 0
        let delay = try o.optional("delay")?.number(Animation.delaySpec) ?? 0
        let curve = try o.optional("curve").map { (n: Node) throws(SceneFileError) -> TimingCurve in try timingCurve(n) } ?? .default
        let nameNode = try o.required("layer")
        let name = try nameNode.string()
        guard let layer = layers[name] else {
            let names = layers.keys.sorted(), shown = names.prefix(10).joined(separator: ", ")
            let listing = names.isEmpty ? "" : " (layers: \(shown)\(names.count > 10 ? " and \(names.count - 10) more" : ""))"
            throw .invalid(path: nameNode.path, message: "no layer is called \"\(name)\"" + listing)
        }
        // A backdrop's number and colour keys are animatable too.
        var effectKeys: [Parameter] = []
        if let effect = layer.backdropFilter, effect.isAnimatable {
            effectKeys = effect.arguments.operation.parameters(in: .scene).filter {
                switch $0.kind {
                case .number, .color: return true
                default: return false
                }
            }
        }
        // The blur's short form (which has no keys of its own) animates its radius by the material's key.
        let blurShortForm = layer.backdropFilter.map { $0.isAnimatable && $0.arguments.operation.name == GaussianBlurOperation.name } ?? false
        let shortFormKeys = blurShortForm ? [Reader.radiusKey] : []
        let layerKeys = ["opacity", "frame", "backgroundColor", "cornerRadius", "blurRadius"] + shortFormKeys
        let set = try o.required("set").object(layerKeys + effectKeys.map(\.name).filter { !layerKeys.contains($0) })
        // Read every value first, so an error leaves the scene unchanged.
        var changes: [(Layer) -> Void] = []
        if let v = set.optional("opacity") { let x = try v.number(Layer.opacitySpec); changes.append { $0.opacity = x } }
        if let v = set.optional("frame") { let x = try v.rect(); changes.append { $0.frame = x } }
        if let v = set.optional("backgroundColor") { let x = try v.color(appearance); changes.append { $0.backgroundColor = x } }
        if let v = set.optional("cornerRadius") { let x = try v.number(Layer.cornerRadiusSpec); changes.append { $0.cornerRadius = x } }
        if let v = set.optional("blurRadius") { let x = try v.number(Layer.blurRadiusSpec); changes.append { $0.blurRadius = x } }
        if shortFormKeys.contains(Reader.radiusKey), let v = set.optional(Reader.radiusKey) {
            let x = try v.number(Layer.backdropRadiusSpec)
            changes.append { $0.setBackdropParameter(GaussianBlurOperation.radius, to: x) }
        }
        let appearance = appearance
        for p in effectKeys where !layerKeys.contains(p.name) {
            guard let v = set.optional(p.name) else { continue }
            // A key the backdrop neither gives nor defaults (a progressive's angle) has nothing to animate from.
            if layer.effectNumbers[p.name] == nil, layer.effectColors[p.name] == nil,
                layer.backdropFilter?.value(p.name, appearance: appearance) == nil
            {
                throw .invalid(path: v.path, message: "the backdrop gives no \(p.name) to animate from: give one in its object")
            }
            switch p.kind {
            case let .number(spec):
                let x = try v.number(spec)
                changes.append { $0.setBackdropParameter(p.name, to: x, appearance: appearance) }
            default:
                let x = try v.color(appearance)
                changes.append { $0.setBackdropParameter(p.name, to: x, appearance: appearance) }
            }
        }
        if duration > 0 || { if case .spring = curve { true } else { false } }() {
            scene.animate(at: at, duration: duration, delay: delay, curve: curve) { for change in changes { change(layer) } }
        } else {
            scene.at(at + delay) { for change in changes { change(layer) } }
        }
        // Where the animations leave the backdrop, it must be an effect its operation draws (not a
        // start past the stop, nor a ramp beside a gradient's inset): refused here as it would be given.
        if let effect = layer.backdropFilter, effect.isAnimatable, !layer.effectNumbers.isEmpty || !layer.effectColors.isEmpty {
            do { _ = try effect.checked(layer.backdropEndValues()) } catch { throw .invalid(path: set.node.path, message: error.description) }
        }
        return at + Animation(duration: duration, delay: delay, curve: curve).activeDuration + delay
    }

    /// A name (linear, easeIn, easeOut, easeInOut, default), `[x1, y1, x2, y2]`, or a spring:
    /// `{"spring": {"response": s, "dampingFraction": d}}` or `{"spring": {"mass": m, "stiffness": k,
    /// "damping": c}}`, either with an optional `"initialVelocity"`.
    func timingCurve(_ node: Node) throws(SceneFileError) -> TimingCurve {
        switch node.value {
        case .string:
            return try node.choice(TimingCurve.nameSpec)
        case .array:
            let items = try node.array()
            guard items.count == 4 else { throw .type(path: node.path, expected: "[x1, y1, x2, y2]", got: "\(items.count) numbers") }
            return .cubicBezier(
                x1: try items[0].number(TimingCurve.controlXSpec), y1: try items[1].number(TimingCurve.controlYSpec),
                x2: try items[2].number(TimingCurve.controlXSpec), y2: try items[3].number(TimingCurve.controlYSpec))
        default:
            let o = try node.object(["spring"])
            let node = try o.required("spring")
            let s = try node.object(["response", "dampingFraction", "mass", "stiffness", "damping", "initialVelocity"])
            func number(_ key: String, _ spec: ParameterSpec) throws(SceneFileError) -> Double {
                try s.optional(key)?.number(spec) ?? spec.defaultValue!
            }
            let velocity = try number("initialVelocity", TimingCurve.springVelocitySpec)
            let physical = ["mass", "stiffness", "damping"].filter { s.optional($0) != nil }
            guard !physical.isEmpty else {
                return .spring(
                    response: try number("response", TimingCurve.springResponseSpec),
                    dampingFraction: try number("dampingFraction", TimingCurve.springDampingSpec), initialVelocity: velocity)
            }
            if let other = ["response", "dampingFraction"].first(where: { s.optional($0) != nil }) {
                throw .invalid(
                    path: node.path,
                    message: "give \(other) or \(physical[0]), not both: response and dampingFraction, or mass, stiffness and damping")
            }
            return .spring(
                mass: try number("mass", TimingCurve.springMassSpec), stiffness: try number("stiffness", TimingCurve.springStiffnessSpec),
                damping: try number("damping", TimingCurve.springDampingForceSpec), initialVelocity: velocity)
        }
    }
}

extension Parameter.Kind {
    /// True when a scene may give the value as the text the other front ends take.
    fileprivate var readsText: Bool {
        switch self {
        case .number, .flag: return false
        case .choice, .color, .region, .length, .size, .list, .areas: return true
        }
    }

    /// The JSON forms a scene gives a value of this kind in, for messages.
    fileprivate var sceneForms: String {
        switch self {
        case .number: return "a number"
        case .choice: return "a string"
        case .color: return "a colour (a string, {\"red\", \"green\", \"blue\"} or null)"
        case .region: return "[x, y, width, height] or \"X,Y,W,H\""
        case .length: return "a length (\"40pt\", \"25%\", {\"relative\": f}, {\"absolute\": pt} or null)"
        case .size: return "[width, height] or \"WxH\""
        case .flag: return "true or false"
        case .list: return "an array of numbers or \"N,N,…\""
        case .areas: return "areas as a string (\"ellipse:40%,10%,20%,30%:24:8;rect:0,0,100,40\") or an array of them, one a string"
        }
    }
}
