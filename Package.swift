// swift-tools-version:6.0
import PackageDescription

// BlurKit: the blur effects of Apple interfaces, rendered in software on any platform Swift runs on.
//
// No `unsafeFlags` here, so the package stays consumable by version. The Makefile passes
// `-Xcc -mavx2` for our own builds, tests and benchmarks (see ARCHITECTURE.md, "Speed").
let package = Package(
    name: "BlurKit",
    products: [
        .library(name: "BlurKit", targets: ["BlurKit"]),
        .library(name: "BlurCore", targets: ["BlurCore"]),
        .library(name: "BlurIO", targets: ["BlurIO"]),
        .library(name: "BlurScene", targets: ["BlurScene"]),
        // The HTTP service as a library: routes, OpenAPI, playground, caching; mount it in any Swift server.
        .library(name: "BlurServe", targets: ["BlurServe"]),
        .executable(name: "blurkit", targets: ["blurkit"]),
    ],
    targets: [
        // System libraries (C). `make` installs the Debian packages named in the providers.
        .systemLibrary(
            name: "CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
        .systemLibrary(
            name: "CWebP", pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
        .systemLibrary(
            name: "CGnuTLS", pkgConfig: "gnutls",
            providers: [.apt(["libgnutls28-dev"]), .brew(["gnutls"])]),
        // Colour management (ICC profiles) and HEIF/AVIF, read and written through libheif with the
        // decoders and encoders Debian builds it with (libde265, dav1d, aom, x265).
        .systemLibrary(
            name: "CLCMS2", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]),
        .systemLibrary(
            name: "CHeif", pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"]), .brew(["libheif"])]),
        // giflib ships no pkg-config file; the module map links -lgif.
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),
        // libjpeg reports errors by calling a function that must not return; this shim owns the
        // setjmp so that no longjmp ever crosses a Swift frame.
        .target(name: "CJPEGShim", dependencies: ["CJPEG"]),
        // The same for libpng, whose errors jump too.
        .target(name: "CPNGShim", dependencies: ["CPNG"]),
        // libmicrohttpd's variadic calls (start, daemon info) behind fixed arguments.
        .target(name: "CMicroHTTPDShim", dependencies: ["CMicroHTTPD"]),

        // Which instruction sets the build was given (`-Xcc -mavx2`), read by the kernels as a constant.
        .target(name: "CSIMDFeatures"),
        .target(name: "BlurCore", dependencies: ["CSIMDFeatures"]),
        .target(
            name: "BlurIO", dependencies: ["BlurCore", "CPNGShim", "CZlib", "CJPEGShim", "CFreeType", "CWebP", "CGIF", "CLCMS2", "CHeif", "CGnuTLS"]),
        .target(name: "BlurScene", dependencies: ["BlurCore", "BlurIO"]),
        // The C allocator's bytes in use, for the heap ceiling a render stops at.
        .target(name: "CMemory"),
        .target(name: "BlurKit", dependencies: ["BlurCore", "BlurIO", "BlurScene", "CMemory"]),
        // The command line's scanner, help and errors: a library so that the fuzzer can reach it.
        .target(name: "BlurCommandLine", dependencies: ["BlurCore", "BlurIO"]),
        // `blurkit serve`'s HTTP layer: requests, confinement to the root, signing, caching, metrics.
        // The playground's HTML, CSS and JavaScript are real files under Resources/, embedded in the
        // library at build time (no bundle to install beside the binary).
        .target(
            name: "BlurServe", dependencies: ["BlurKit", "CMicroHTTPDShim", "CGnuTLS"],
            resources: [
                .embedInCode("Resources/playground.html"), .embedInCode("Resources/playground.css"),
                .embedInCode("Resources/playground.js"),
            ]),
        // The demo gallery's page is a real file under Demo/Resources, embedded at build time.
        .executableTarget(
            name: "blurkit", dependencies: ["BlurKit", "BlurCommandLine", "BlurServe"], resources: [.embedInCode("Demo/Resources/gallery.html")]),
        .executableTarget(name: "BlurBench", dependencies: ["BlurKit"]),
        // libFuzzer target: `make fuzz` builds it with -sanitize=fuzzer,address -parse-as-library.
        .executableTarget(name: "BlurFuzz", dependencies: ["BlurKit", "BlurCommandLine", "BlurServe"]),

        // What the test targets share: the noise generator, the fixtures, `withEveryTinyImage`.
        .target(name: "BlurTestSupport", dependencies: ["BlurCore", "BlurIO"], path: "Tests/BlurTestSupport"),
        .testTarget(name: "BlurCoreTests", dependencies: ["BlurCore", "BlurIO", "BlurTestSupport"]),
        .testTarget(name: "BlurIOTests", dependencies: ["BlurIO", "CJPEGShim", "CHeif", "CLCMS2", "BlurTestSupport"]),
        .testTarget(name: "BlurSceneTests", dependencies: ["BlurScene", "BlurIO", "BlurTestSupport"], exclude: ["Golden"]),
        // Depends on the executable so that `swift test` builds it; the tests run it as a process.
        .testTarget(name: "BlurCLITests", dependencies: ["BlurKit", "BlurCommandLine", "BlurServe", "blurkit", "BlurTestSupport"]),
    ]
)
