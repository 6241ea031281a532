import Foundation

/// A value shared by concurrent workers, read and written only inside ``withLock(_:)``.
///
/// The lock is Foundation's `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: under
/// contention `Mutex` waits in a futex inside the uninstrumented standard library, where
/// ThreadSanitizer cannot see the hand-over, and `make sanitize` then reports races that are not
/// there. `@unchecked Sendable`: every access to `value` holds the lock.
package final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
