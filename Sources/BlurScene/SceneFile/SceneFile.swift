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

    /// Reads a scene file; relative image paths are resolved against its folder.
    public static func read(_ path: String) throws -> SceneFile {
        let bytes = try AtomicFile.read(path)
        return try parse(bytes, baseDirectory: (path as NSString).deletingLastPathComponent)
    }

    /// Parses scene JSON; images are read from `baseDirectory` when their paths are relative, or
    /// given by `imageLoader` (called with the path as written in the file) when there is one.
    public static func parse(
        _ bytes: [UInt8], baseDirectory: String = ".", imageLoader: ((String) throws -> Bitmap)? = nil
    ) throws(SceneFileError) -> SceneFile {
        var reader = Reader(baseDirectory: baseDirectory, loader: imageLoader)
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

    /// `"#RRGGBB"`, `"#RGB"`, `"#RRGGBBAA"`, a name (white, black, clear, gray), or
    /// `{"red", "green", "blue", "alpha"}` / `{"white", "alpha"}` with values 0…1.
    func color() throws(SceneFileError) -> Color {
        if case let .string(s) = value {
            switch s {
            case "white": return .white
            case "black": return .black
            case "clear": return .clear
            case "gray", "grey": return Color(white: 0.5)
            default:
                guard let c = Color(hex: s) else {
                    throw .invalid(path: path, message: "expected a colour such as \"#FF8800\", \"#FF880080\" or \"white\", got \(value.summary)")
                }
                return c
            }
        }
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
    var layers: [String: Layer] = [:]
    var images: [String: Bitmap] = [:]

    init(baseDirectory: String, loader: ((String) throws -> Bitmap)?) {
        self.baseDirectory = baseDirectory
        self.loader = loader
    }

    mutating func document(_ root: Node) throws(SceneFileError) -> SceneFile {
        let o = try root.object(["width", "height", "scale", "background", "appearance", "duration", "fps", "layers", "animations"])
        let scene = Scene(
            width: try o.required("width").number(Scene.sizeSpec), height: try o.required("height").number(Scene.sizeSpec),
            backgroundColor: try o.optional("background")?.color() ?? .white)
        if let a = o.optional("appearance") { scene.appearance = try a.choice(Appearance.spec) }
        let scale = try o.optional("scale")?.number(Scene.scaleSpec)
        let duration = try o.optional("duration")?.number(SceneRecording.durationSpec)
        let fps = try o.optional("fps")?.number(SceneRecording.frameRateSpec)
        for node in try o.optional("layers")?.array() ?? [] { scene.addLayer(try layer(node)) }
        var end = 0.0
        for node in try o.optional("animations")?.array() ?? [] { end = max(end, try animation(node, in: scene)) }
        return SceneFile(scene: scene, layers: layers, scale: scale, duration: duration, frameRate: fps, lastAnimationEnd: end)
    }

    mutating func layer(_ node: Node) throws(SceneFileError) -> Layer {
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
        if let c = o.optional("backgroundColor") { layer.backgroundColor = try c.color() }
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
        let o = try node.object(["color", "image", "mode", "gradient", "shape", "fill", "reflection"])
        let (kind, value) = try o.oneOf(["color", "image", "gradient", "shape", "reflection"])
        if kind != "image" { try o.forbid(["mode"], because: "with \"\(kind)\" (it goes with \"image\")") }
        if kind != "shape" { try o.forbid(["fill"], because: "with \"\(kind)\" (it goes with \"shape\")") }
        switch kind {
        case "color":
            return .color(try value.color())
        case "image":
            let mode = try o.optional("mode")?.choice(ContentMode.spec) ?? ContentMode.spec.defaultValue!
            return .bitmap(try image(value), mode: mode)
        case "gradient":
            let g = try value.object(["colors", "from", "to", "start", "end"])
            var colors: [Color] = []
            if let list = g.optional("colors") {
                try g.forbid(["from", "to"], because: "with \"colors\"")
                for c in try list.array() { colors.append(try c.color()) }
                guard colors.count >= 2 else { throw .invalid(path: list.path, message: "a gradient needs at least two colours") }
            } else {
                colors = [try g.required("from").color(), try g.required("to").color()]
            }
            return .linearGradient(
                colors: colors, start: try g.optional("start")?.point() ?? (0.5, 0), end: try g.optional("end")?.point() ?? (0.5, 1))
        case "shape":
            return .shape(try shape(value), fill: try o.required("fill").color())
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
        } catch let error as FileError {
            throw .image(path: node.path, file: file, message: "\(error)")
        } catch {
            throw .image(path: node.path, file: file, message: "\(file): \(error)")
        }
    }

    func backdrop(_ node: Node, of layer: Layer) throws(SceneFileError) {
        let o = try node.object(["blur", "material", "progressive"] + BlurOperation.material.parameters(in: .scene).map { $0.name })
        let (kind, value) = try o.oneOf(["blur", "material", "progressive"])
        if kind != "material" { try o.forbid(["dimmingAlpha"], because: "with \"\(kind)\" (it goes with \"material\")") }
        if kind == "progressive" { try o.forbid(["blurEffectRadius"], because: "with \"progressive\" (use its maximumBlurRadius)") }
        switch kind {
        case "blur":
            layer.backdropFilter = .blur(radius: try value.number(Layer.backdropRadiusSpec))
            if let r = o.optional("blurEffectRadius") { layer.blurEffectRadius = try r.number(Layer.backdropRadiusSpec) }
        case "material":
            layer.backdropFilter = .material(Material(style: try value.choice(MaterialStyle.spec)))
            if let r = o.optional("blurEffectRadius") { layer.blurEffectRadius = try r.number(Material.radiusSpec) }
            if let d = o.optional("dimmingAlpha") { layer.dimmingAlpha = try d.number(Material.dimmingSpec) }
        default:
            layer.backdropFilter = .progressive(try progressive(value))
        }
    }

    /// A progressive backdrop: the keys and kinds of ``BlurOperation/progressive``'s scene
    /// parameters, read into its arguments and built by the same typed initialiser as every front end.
    /// JSON forms beside the text ones: sizings as `{"relative": f}` / `{"absolute": pt}` / null,
    /// colours in any scene form (`"systemBackground"` the system background, null none), and
    /// `dimmingAlpha` as null or `{"light", "dark"}` too.
    func progressive(_ node: Node) throws(SceneFileError) -> VariableBlurEffect {
        let operation = BlurOperation.progressive
        let o = try node.object(operation.parameters(in: .scene).map { $0.name })
        var values: [String: ParameterValue] = [:]
        var alpha: DimmingAlpha?? = nil
        for parameter in operation.parameters(in: .scene) {
            guard let v = o.optional(parameter.name) else { continue }
            switch parameter.kind {
            case let .number(spec) where parameter.name == "dimmingAlpha":
                switch v.value {
                case .null: alpha = .some(nil)
                case .object:
                    let a = try v.object(["light", "dark"])
                    alpha = .interfaceStyle(lightModeAlpha: try a.required("light").number(spec), darkModeAlpha: try a.required("dark").number(spec))
                case .number: values[parameter.name] = .number(try v.number(spec))
                default: throw .type(path: v.path, expected: "a number, null or {\"light\", \"dark\"}", got: v.value.summary)
                }
            case let .number(spec):
                values[parameter.name] = .number(try v.number(spec))
            case .choice:
                values[parameter.name] = try v.parsed(parameter)
            case let .length(fractions, _):
                if case .string = v.value {
                    values[parameter.name] = try v.parsed(parameter)
                } else {
                    values[parameter.name] = .length(try sizing(v, fractions: fractions))
                }
            case .color:
                switch v.value {
                case .null: values[parameter.name] = .color(.none)
                case .string("systemBackground"), .string("background"): values[parameter.name] = .color(.background)
                case .string("none"): values[parameter.name] = .color(.none)
                default: values[parameter.name] = .color(.color(try v.color()))
                }
            default:
                values[parameter.name] = try v.parsed(parameter)
            }
        }
        do {
            var effect = try VariableBlurEffect(OperationArguments(operation: operation, values: values, spelling: .key))
            if let alpha { effect.dimmingAlpha = alpha }
            return try effect.validated()
        } catch { throw .invalid(path: node.path, message: error.description) }
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
        let set = try o.required("set").object([
            "opacity", "frame", "backgroundColor", "cornerRadius", "blurRadius", "blurEffectRadius", "dimmingAlpha",
        ])
        // Read every value first, so an error leaves the scene unchanged.
        var changes: [(Layer) -> Void] = []
        if let v = set.optional("opacity") { let x = try v.number(Layer.opacitySpec); changes.append { $0.opacity = x } }
        if let v = set.optional("frame") { let x = try v.rect(); changes.append { $0.frame = x } }
        if let v = set.optional("backgroundColor") { let x = try v.color(); changes.append { $0.backgroundColor = x } }
        if let v = set.optional("cornerRadius") { let x = try v.number(Layer.cornerRadiusSpec); changes.append { $0.cornerRadius = x } }
        if let v = set.optional("blurRadius") { let x = try v.number(Layer.blurRadiusSpec); changes.append { $0.blurRadius = x } }
        if let v = set.optional("blurEffectRadius") { let x = try v.number(Material.radiusSpec); changes.append { $0.blurEffectRadius = x } }
        if let v = set.optional("dimmingAlpha") { let x = try v.number(Material.dimmingSpec); changes.append { $0.dimmingAlpha = x } }
        if duration > 0 || { if case .spring = curve { true } else { false } }() {
            scene.animate(at: at, duration: duration, delay: delay, curve: curve) { for change in changes { change(layer) } }
        } else {
            scene.at(at + delay) { for change in changes { change(layer) } }
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
