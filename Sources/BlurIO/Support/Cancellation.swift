import Foundation

/// When a decoder or encoder must give up: a deadline and the caller's "stop now" (a render's
/// `RenderOptions`). The codecs ask it inside the libraries' long calls — libjpeg's progress
/// monitor between rows of blocks — and, for the libraries that cannot be interrupted (libheif),
/// compare the time a call would take with ``secondsLeft`` before making it.
///
/// Thread-safe when `cancelled` is: it is asked from the decoding thread.
package struct Cancellation: Sendable {
    /// The time by which the work must be done; nil: none.
    package var deadline: Date?
    /// Asked now and then; true stops the work (a closed connection, a signal).
    package var cancelled: @Sendable () -> Bool

    /// No deadline, never cancelled.
    package static let never = Cancellation()

    package init(deadline: Date? = nil, cancelled: @escaping @Sendable () -> Bool = { false }) {
        self.deadline = deadline
        self.cancelled = cancelled
    }

    /// Seconds until the deadline: `.infinity` without one, ≤ 0 once it has passed.
    package var secondsLeft: Double { deadline.map { $0.timeIntervalSinceNow } ?? .infinity }

    /// Whether the work must stop now: the deadline has passed or `cancelled` says so.
    package var isOver: Bool { secondsLeft <= 0 || cancelled() }
}
