import Foundation

/// A value for the work the current thread does, set around that work: `blurkit serve` runs each
/// request on one of libmicrohttpd's threads and gives it its deadline and its scene-image loader
/// this way. (Task-local values cannot be bound on threads Swift did not start.)
struct ThreadScoped<Value>: Sendable {
    let key: String

    /// The value set on this thread, nil outside ``withValue(_:_:)``.
    var value: Value? { Thread.current.threadDictionary[key] as? Value }

    /// Runs `body` with `value` set on this thread, then restores what was there.
    func withValue<Result>(_ value: Value, _ body: () throws -> Result) rethrows -> Result {
        let dictionary = Thread.current.threadDictionary
        let previous = dictionary[key]
        dictionary[key] = value
        defer { dictionary[key] = previous }
        return try body()
    }
}
