// swift-tools-version:6.0
import PackageDescription

// BlurKit's routes mounted in a server of one's own: the BlurServe library over our libmicrohttpd
// front, in a package that depends on BlurKit as any user's would (by path here).
let package = Package(
    name: "ExampleServer",
    dependencies: [.package(name: "BlurKit", path: "../..")],
    targets: [.executableTarget(name: "ExampleServer", dependencies: [.product(name: "BlurServe", package: "BlurKit")])]
)
