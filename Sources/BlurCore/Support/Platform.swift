#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// What the WebAssembly build lacks — it is Embedded Swift with no C library, on one thread — in one
// place. There, `Mutex` and `TaskLocal` are stand-ins with the same names and the calls the engine
// makes, the environment is empty, and ``Parallel`` runs its bands in turn. Everything else is the
// same code in both builds; the elementary functions are ours in both (``Elementary``).

#if hasFeature(Embedded)
/// One thread: a lock needs nothing but the value.
final class Mutex<Value>: @unchecked Sendable {
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R { try body(&value) }
}

/// One thread and no tasks: a scoped value is a variable saved and restored around the operation.
final class TaskLocal<Value>: @unchecked Sendable {
    private var value: Value
    init(wrappedValue: Value) { value = wrappedValue }
    func get() -> Value { value }
    func withValue<R>(_ scoped: Value, operation: () throws -> R) rethrows -> R {
        let saved = value
        value = scoped
        defer { value = saved }
        return try operation()
    }
}
#endif

enum Platform {
    /// The environment variable `name`, or nil (always nil in WebAssembly, which has none).
    static func environment(_ name: String) -> String? {
        #if hasFeature(Embedded)
        return nil
        #else
        return getenv(name).map { String(cString: $0) }
        #endif
    }
}
