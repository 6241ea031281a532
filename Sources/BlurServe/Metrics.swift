import Foundation
import Synchronization

/// What `GET /metrics` reports, in the Prometheus text format: requests by route and status, a
/// latency histogram by route, bytes sent, cache hits and misses, requests in flight and those
/// refused for want of a slot.
public final class Metrics: Sendable {
    /// The histogram's upper bounds, in seconds.
    public static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct State {
        var requests: [String: Int] = [:]
        var histograms: [String: (counts: [Int], sum: Double, count: Int)] = [:]
        var bytes = 0
        var cacheHits = 0
        var cacheMisses = 0
        var rejected = 0
    }

    private let state = Mutex(State())
    private let inFlight = Atomic<Int>(0)

    /// Every counter at zero.
    public init() {}

    /// A render has started; pair with ``endRender()``.
    public func startRender() { inFlight.add(1, ordering: .relaxed) }

    /// A render has ended.
    public func endRender() { inFlight.subtract(1, ordering: .relaxed) }

    /// A request was answered: its route, status, body bytes and time taken.
    public func finish(route: String, status: Int, bytes: Int, seconds: Double) {
        state.withLock { s in
            s.requests["route=\"\(route)\",status=\"\(status)\"", default: 0] += 1
            var h = s.histograms[route] ?? (counts: [Int](repeating: 0, count: Metrics.buckets.count), sum: 0, count: 0)
            for (i, bound) in Metrics.buckets.enumerated() where seconds <= bound { h.counts[i] += 1 }
            h.sum += seconds
            h.count += 1
            s.histograms[route] = h
            s.bytes += bytes
        }
    }

    /// A response was served from the disk cache (`blurkit_cache_hits_total`).
    public func cacheHit() { state.withLock { $0.cacheHits += 1 } }
    /// A cacheable response was rendered afresh (`blurkit_cache_misses_total`).
    public func cacheMiss() { state.withLock { $0.cacheMisses += 1 } }
    /// A request was refused with 503 for want of a render slot (`blurkit_rejected_total`).
    public func reject() { state.withLock { $0.rejected += 1 } }

    /// The exposition text.
    public var text: String {
        let s = state.withLock { $0 }
        var lines = [
            "# HELP blurkit_requests_total Requests answered, by route and status.",
            "# TYPE blurkit_requests_total counter",
        ]
        for key in s.requests.keys.sorted() { lines.append("blurkit_requests_total{\(key)} \(s.requests[key]!)") }
        lines += [
            "# HELP blurkit_request_duration_seconds Time from the request to its response, by route.",
            "# TYPE blurkit_request_duration_seconds histogram",
        ]
        for route in s.histograms.keys.sorted() {
            let h = s.histograms[route]!
            for (i, bound) in Metrics.buckets.enumerated() {
                lines.append("blurkit_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(bound)\"} \(h.counts[i])")
            }
            lines.append("blurkit_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(h.count)")
            lines.append("blurkit_request_duration_seconds_sum{route=\"\(route)\"} \(String(format: "%.6f", h.sum))")
            lines.append("blurkit_request_duration_seconds_count{route=\"\(route)\"} \(h.count)")
        }
        lines += [
            "# HELP blurkit_response_bytes_total Body bytes sent.", "# TYPE blurkit_response_bytes_total counter",
            "blurkit_response_bytes_total \(s.bytes)",
            "# HELP blurkit_cache_hits_total Responses served from the disk cache.", "# TYPE blurkit_cache_hits_total counter",
            "blurkit_cache_hits_total \(s.cacheHits)",
            "# HELP blurkit_cache_misses_total Cacheable responses rendered afresh.", "# TYPE blurkit_cache_misses_total counter",
            "blurkit_cache_misses_total \(s.cacheMisses)",
            "# HELP blurkit_in_flight Renders running now.", "# TYPE blurkit_in_flight gauge",
            "blurkit_in_flight \(inFlight.load(ordering: .relaxed))",
            "# HELP blurkit_rejected_total Requests refused with 503 because every slot was busy.", "# TYPE blurkit_rejected_total counter",
            "blurkit_rejected_total \(s.rejected)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
