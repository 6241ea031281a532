import BlurKit
import Foundation

/// The OpenAPI 3 document served at `/openapi.json`, made from the routes' parameter tables — the
/// tables `--help` prints — so the document, the playground's controls and the command line agree.
enum OpenAPIDocument {
    /// - Parameter examples: a path under the root for the image routes' `path`, and one for the
    ///   scene route's, when there are (they let a client such as schemathesis reach real files).
    /// - Parameter web: whether `/web/` serves the WebAssembly build (`x-blurkit-web`, for the playground).
    static func make(routes: [ServiceRoute], signed: Bool, web: Bool = false, examples: (image: String?, scene: String?) = (nil, nil)) -> String {
        let errorResponse: [String: Any] = ["$ref": "#/components/schemas/Error"]
        func failure(_ text: String) -> [String: Any] {
            ["description": text, "content": ["application/json": ["schema": errorResponse]]]
        }
        let errors: [String: Any] = [
            "400": failure(
                "an unknown or invalid parameter (named in `parameter`), or a malformed request (two different Content-Length headers, a bare CR or LF in a header)"
            ),
            "403": failure("a path that leads out of the root, or a missing or wrong signature"),
            "404": failure("no such file under the root"),
            "405": failure("the route does not take this method"),
            "413": failure(
                "the body, the image's pixel count, its decoding's or the job's memory estimate, or the response's size is over the server's limits"),
            "415": failure("not an image format BlurKit reads"),
            "422": failure("an image or scene file that cannot be decoded or used"),
            "500": failure("an internal error"),
            "503": [
                "description":
                    "the renders ahead would leave no time within the time limit, the queue or the memory for uploads is full, the server is shutting down, or the work ran over the time limit",
                "headers": ["Retry-After": ["schema": ["type": "integer"], "description": "seconds to wait"]],
                "content": ["application/json": ["schema": errorResponse]],
            ],
        ]
        var paths: [String: Any] = [:]
        for route in routes {
            var parameters = route.parameters.map { p -> [String: Any] in
                var described = parameter(p)
                if let other = p.goesWith.flatMap({ route.operation.parameter($0) }), var schema = described["schema"] as? [String: Any] {
                    schema["x-blurkit-goes-with"] = other.flag
                    described["schema"] = schema
                }
                // The formats this route answers in, not every word the command line takes.
                if p.role == .format, var schema = described["schema"] as? [String: Any] {
                    schema["enum"] = route.formatWords(of: p)
                    described["schema"] = schema
                }
                return described
            }
            if signed {
                parameters.append([
                    "name": "sig", "in": "query", "required": true,
                    "schema": ["type": "string", "pattern": "^[0-9a-f]{64}$", "x-blurkit-role": "signature"],
                    "description": "HMAC-SHA256 (hex) of the path and query before it, under the server's key; last in the query",
                ])
            }
            let stills = ImageFormat.allCases.map(BlurService.contentType)
            let animations = [AnimationFormat.webp, .gif, .apng].map(BlurService.contentType(animation:))
            let types: [String]
            switch route.form {
            case .image: types = stills
            case .animation: types = animations
            case .scene: types = Array(Set(stills + animations)).sorted()
            case .placeholder: types = ["application/json"] + stills
            }
            var content: [String: Any] = [:]
            for type in types {
                content[type] =
                    type == "application/json"
                    ? ["schema": ["$ref": "#/components/schemas/Placeholder"]] : ["schema": ["type": "string", "format": "binary"]]
            }
            var responses = errors
            responses["200"] = [
                "description": route.summary, "content": content,
                "headers": ["ETag": ["schema": ["type": "string"], "description": "strong: the input's content, the route and its parameters"]],
            ]
            responses["304"] = ["description": "If-None-Match matched the ETag: not modified"]
            let file = route.form == .scene ? "a scene file (.json)" : "an image"
            paths["/\(route.name)/{path}"] = [
                "get": [
                    "summary": route.summary, "operationId": "\(route.name)File",
                    "x-blurkit-exclusive": route.operation.exclusive.map { $0.compactMap { route.operation.parameter($0)?.flag } },
                    "x-blurkit-form": route.form.rawValue,
                    "parameters": [
                        pathParameter(file, example: route.form == .scene ? examples.scene : examples.image)
                    ] + parameters,
                    "responses": responses,
                ]
            ]
            if route.takesBody {
                paths["/\(route.name)"] = [
                    "post": [
                        "summary": route.summary + " (the image as the body)", "operationId": "\(route.name)Body", "parameters": parameters,
                        "requestBody": [
                            "required": true,
                            "content": ["application/octet-stream": ["schema": ["type": "string", "format": "binary"]]],
                        ],
                        "responses": responses,
                    ]
                ]
            }
        }
        paths["/healthz"] = [
            "get": [
                "summary": "200 while serving, 503 while draining", "operationId": "health",
                "responses": ["200": ["description": "ok", "content": ["text/plain": ["schema": ["type": "string"]]]], "503": errors["503"]!],
            ]
        ]
        paths["/metrics"] = [
            "get": [
                "summary": "Prometheus metrics", "operationId": "metrics",
                "responses": ["200": ["description": "the text exposition format", "content": ["text/plain": ["schema": ["type": "string"]]]]],
            ]
        ]
        paths["/images"] = [
            "get": [
                "summary": "up to 1,000 image and scene paths under the root", "operationId": "images",
                "description": "On a server with a key (`blurkit serve --key`), signed (`sig=`) or with the playground's `X-BlurKit-Token`.",
                "responses": [
                    "200": [
                        "description": "paths relative to the root",
                        "content": ["application/json": ["schema": ["type": "array", "items": ["type": "string"]]]],
                    ],
                    "403": errors["403"]!,
                ],
            ]
        ]
        paths["/openapi.json"] = [
            "get": [
                "summary": "this document", "operationId": "openAPI",
                "responses": ["200": ["description": "OpenAPI 3", "content": ["application/json": ["schema": ["type": "object"]]]]],
            ]
        ]
        paths["/"] = [
            "get": [
                "summary": "the playground page", "operationId": "playground",
                "responses": ["200": ["description": "HTML", "content": ["text/html": ["schema": ["type": "string"]]]]],
            ]
        ]

        let document: [String: Any] = [
            "openapi": "3.0.3",
            "info": [
                "title": "BlurKit", "version": BlurKitVersion.string, "x-blurkit-web": web,
                "description": "The effects of `blurkit` over HTTP: parameters have the command line's names, ranges and defaults.",
            ],
            "paths": paths,
            "components": [
                "schemas": [
                    "Error": [
                        "type": "object", "required": ["error"],
                        "properties": ["error": ["type": "string"], "parameter": ["type": "string", "description": "the parameter to blame"]],
                    ],
                    "Placeholder": [
                        "type": "object",
                        "required": ["averageColor", "file", "width", "height", "preview"],
                        "properties": [
                            "averageColor": ["type": "string", "description": "#RRGGBB, or #RRGGBBAA when translucent"],
                            "file": ["type": "string"], "width": ["type": "integer"], "height": ["type": "integer"],
                            "thumbHash": ["type": "string", "description": "base64"],
                            "preview": [
                                "type": "object",
                                "properties": [
                                    "dataURI": ["type": "string"], "file": ["type": "string"], "width": ["type": "integer"],
                                    "height": ["type": "integer"],
                                ],
                            ],
                        ],
                    ],
                ]
            ],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The `path` parameter: `file` under the root.
    static func pathParameter(_ file: String, example: String?) -> [String: Any] {
        var parameter: [String: Any] = [
            "name": "path", "in": "path", "required": true, "schema": ["type": "string"],
            "description": "\(file) under the server's root, relative to it",
        ]
        if let example { parameter["example"] = example }
        return parameter
    }

    /// One query parameter from the registry.
    static func parameter(_ p: Parameter) -> [String: Any] {
        ["name": p.flag, "in": "query", "required": false, "schema": schema(p), "description": p.help]
    }

    /// The schema of a registry parameter as a query takes it: its range, its words (aliases
    /// included: any case is taken; `x-blurkit-words` the canonical ones), its default, and where
    /// it comes from (`x-blurkit-*`).
    static func schema(_ p: Parameter) -> [String: Any] {
        var schema: [String: Any]
        switch p.kind {
        case let .number(spec):
            schema = ["type": spec.isInteger ? "integer" : "number", "minimum": spec.range.lowerBound, "maximum": spec.range.upperBound]
        case .choice:
            schema = ["type": "string", "enum": p.allWords, "x-blurkit-words": p.words]
        case .flag:
            schema = ["type": "string", "enum": ["", "1", "true", "0", "false"]]
        case let .list(spec, most):
            let number = spec.isInteger ? "[0-9]+" : "[0-9.]+"
            schema = ["type": "string", "pattern": "^\(number)(,\(number)){0,\(most - 1)}$", "x-blurkit-most": most]
        case let .areas(most):
            schema = ["type": "string", "minLength": 7, "x-blurkit-most": most]
        default:
            schema = ["type": "string"]
        }
        switch p.defaultValue {
        case let .value(v), let .perAppearance(v, _):
            if case let .number(n) = v { schema["default"] = n } else if case .flag = v {} else { schema["default"] = v.text }
        case .absent: break
        }
        if case let .perAppearance(light, dark) = p.defaultValue { schema["x-blurkit-defaults"] = ["light": light.text, "dark": dark.text] }
        if let text = p.defaultText { schema["x-blurkit-default-text"] = text }
        if let suggested = p.suggested { schema["x-blurkit-suggested"] = suggested.text }
        schema["x-blurkit-kind"] = OpenAPIDocument.kindName(p.kind)
        schema["x-blurkit-key"] = p.name
        if p.role != .value { schema["x-blurkit-role"] = p.role.rawValue }
        if p.frontEnds.contains(.commandLine) { schema["x-blurkit-flag"] = "--" + p.flag }
        return schema
    }

    /// The kind's name, as ``Describe`` writes it.
    static func kindName(_ kind: Parameter.Kind) -> String {
        switch kind {
        case .number: return "number"
        case .choice: return "choice"
        case .color: return "color"
        case .region: return "region"
        case .length: return "length"
        case .size: return "size"
        case .flag: return "flag"
        case .list: return "list"
        case .areas: return "areas"
        }
    }
}
