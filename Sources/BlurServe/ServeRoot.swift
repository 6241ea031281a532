import Foundation

/// The folder the service reads images and scenes from, and the one check every path from a
/// request goes through: it must name a regular file inside the folder, after every symbolic link
/// is followed.
public struct ServeRoot: Sendable {
    /// The folder, absolute, with its own links resolved.
    public let path: String

    /// - Throws: ``ServeError/notFound(_:)`` when `folder` is not a readable folder.
    public init(_ folder: String) throws(ServeError) {
        var isFolder: ObjCBool = false
        guard let real = realpath(folder, nil) else { throw .notFound("\(folder): no such folder") }
        defer { free(real) }
        path = String(cString: real)
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .notFound("\(folder) is not a folder")
        }
    }

    /// The file `relative` names under the root.
    /// - Throws: 400 for an empty path; 403 for an absolute path, a `..` or `.` segment, a hidden
    ///   name (one that starts with `.`), or a link that leads out of the root — whether or not what
    ///   it leads to exists, so that nothing outside can be probed; 404 when there is no such regular
    ///   file inside. Paths are compared as bytes (`é` composed and decomposed are different folders).
    public func resolve(_ relative: String) throws(ServeError) -> String {
        guard !relative.isEmpty else { throw .badRequest("the route needs an image path after it, e.g. /blur/photo.jpg") }
        guard !relative.hasPrefix("/") else { throw .forbidden("absolute paths are refused") }
        for segment in relative.split(separator: "/", omittingEmptySubsequences: false) {
            guard !segment.isEmpty else { throw .forbidden("empty path segments are refused") }
            guard !segment.hasPrefix(".") else { throw .forbidden("path segments that start with . are refused") }
        }
        // Each prefix in turn: the first that leads out of the root is refused, whatever lies past it.
        var candidate = path, resolved = path
        for segment in relative.split(separator: "/") {
            candidate += "/" + segment
            guard let real = realpath(candidate, nil) else {
                throw .notFound("\(relative): no such file")
            }
            resolved = String(cString: real)
            free(real)
            guard inside(resolved) else { throw .forbidden("\(relative) leads out of the root") }
        }
        var status = stat()
        guard stat(resolved, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { throw .notFound("\(relative) is not a file") }
        return resolved
    }

    /// The file `relative` names under the root, opened once (see ``ServedFile``): what the
    /// service reads, where ``resolve(_:)`` only answers whether it could.
    /// - Throws: as ``resolve(_:)`` does; 403 too when what was opened lies outside the root.
    public func open(_ relative: String) throws(ServeError) -> ServedFile {
        try ServedFile(resolved: try resolve(relative), root: path, relative: relative)
    }

    /// `name` as a scene in `folder` (relative to the root) names it — `..` and `.` segments taken
    /// as they read, as `blurkit render` takes them — relative to the root again.
    /// - Throws: 403 when it climbs out of the root or is absolute.
    public static func relative(_ name: String, from folder: String) throws(ServeError) -> String {
        guard !name.hasPrefix("/") else { throw .forbidden("\(name): a scene's image under the root is named by a relative path") }
        var segments: [Substring] = folder.split(separator: "/")
        for segment in name.split(separator: "/") {
            switch segment {
            case ".": continue
            case "..":
                guard !segments.isEmpty else { throw .forbidden("\(name) leads out of the root") }
                segments.removeLast()
            default: segments.append(segment)
            }
        }
        return segments.joined(separator: "/")
    }

    /// Whether `resolved` (absolute, links resolved) lies under the root, byte for byte.
    private func inside(_ resolved: String) -> Bool {
        Array(resolved.utf8).starts(with: Array((path + "/").utf8))
    }
}
