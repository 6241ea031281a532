// ExampleServer ROOT [PORT]: BlurKit's routes, OpenAPI document and playground for the images under
// ROOT, on 127.0.0.1 (port 0: any free one). Stop it with Ctrl-C.
import BlurServe
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: ExampleServer ROOT [PORT]\n".utf8))
    exit(2)
}
do {
    let service = BlurService(.init(root: try ServeRoot(arguments[1])))
    let server = try HTTPServer(
        .init(host: "127.0.0.1", port: arguments.count > 2 ? Int(arguments[2]) ?? 0 : 0),
        screen: { service.screen(method: $0, rawTarget: $1, headers: $2) }, handler: { service.handle($0) })
    FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(server.port)/\n".utf8))
    while true { sleep(3600) }
} catch {
    FileHandle.standardError.write(Data("ExampleServer: \(error)\n".utf8))
    exit(1)
}
