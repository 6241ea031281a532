import BlurKit
import Foundation

/// Signed URLs, as imgproxy has them: with a key set, every request must end its query with
/// `sig=HEX`, the HMAC-SHA256 (lower-case hex) of everything before `?sig=` or `&sig=` — the path
/// and the query exactly as sent. A public deployment then renders only the URLs its owner signed.
public struct URLSigner: Sendable {
    private let key: [UInt8]

    /// The key from `--key`: hex, at least 16 bytes.
    public init(hexKey: String) throws(ServeError) {
        guard let key = Digest.bytes(hex: hexKey), key.count >= 16 else {
            throw .badRequest("--key must be hex of at least 16 bytes (32 hex digits)", parameter: "key")
        }
        self.key = key
    }

    /// `target` (path and query, as it will be sent) with its signature appended.
    public func sign(_ target: String) -> String {
        let signature = Digest.hex(Digest.hmacSHA256(key: key, Array(target.utf8)))
        return target + (target.contains("?") ? "&" : "?") + "sig=" + signature
    }

    /// A token for the playground's page, good until `expiry` (seconds since 1970): `EXPIRY.HMAC`.
    /// Requests that carry it in `X-BlurKit-Token` are taken without a signature until then.
    public func token(until expiry: Int) -> String {
        "\(expiry)." + Digest.hex(Digest.hmacSHA256(key: key, Array("playground-token:\(expiry)".utf8)))
    }

    /// Whether `token` is one ``token(until:)`` made with this key and it has not expired at `now`.
    public func accepts(token: String, now: Double) -> Bool {
        guard let dot = token.firstIndex(of: "."), let expiry = Int(token[..<dot]),
            Double(expiry) > now
        else { return false }
        return URLSigner.same(Array(token.utf8), Array(self.token(until: expiry).utf8))
    }

    /// Whether `given` is `expected`, compared in constant time: every byte, whatever the first difference.
    private static func same(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for i in 0..<min(given.count, expected.count) { difference |= given[i] ^ expected[i] }
        return difference == 0
    }

    /// The target without its signature, when the signature is there and right and the URL has not
    /// expired: a signed query may carry `expires=` (seconds since 1970, an integer), covered by the
    /// signature like every other parameter; from that second on the URL is refused.
    /// - Throws: ``ServeError/forbidden(_:)`` when the signature is missing or wrong, or the URL has
    ///   expired (at `now`, seconds since 1970); ``ServeError/badRequest(_:parameter:)`` when
    ///   `expires` is not an integer.
    public func verify(_ rawTarget: String, now: Double = Date().timeIntervalSince1970) throws(ServeError) -> String {
        guard let range = rawTarget.range(of: "sig=", options: .backwards), range.lowerBound > rawTarget.startIndex else {
            throw .forbidden("this server takes signed URLs only: end the query with sig=HMAC")
        }
        let separator = rawTarget[rawTarget.index(before: range.lowerBound)]
        let signed = String(rawTarget[..<rawTarget.index(before: range.lowerBound)])
        // `&sig=` ends a query; without one before it, the `&` would be part of the path.
        guard separator == "?" || (separator == "&" && signed.contains("?")) else {
            throw .forbidden("this server takes signed URLs only: end the query with sig=HMAC")
        }
        let given = Array(rawTarget[range.upperBound...].utf8)
        let expected = Array(Digest.hex(Digest.hmacSHA256(key: key, Array(signed.utf8))).utf8)
        guard URLSigner.same(given, expected) else { throw .forbidden("the URL's signature is wrong") }
        if let expires = try RequestTarget(signed)["expires"] {
            guard let expiry = Int(expires) else {
                throw .badRequest("expires must be a time in whole seconds since 1970, got \(expires)", parameter: "expires")
            }
            guard Double(expiry) > now else { throw .forbidden("the URL expired at \(expiry) (seconds since 1970)") }
        }
        return signed
    }
}

extension URLSigner {
    /// The service's target for the image at `path` (under its root) resized to `width`:
    /// `/resize/PATH?width=W`, each segment of the path percent-encoded as JavaScript's
    /// `encodeURIComponent` does (so the same as `blurkit/loader`'s `blurkitURL`), signed by `signer` when given.
    public static func resizeTarget(_ path: String, width: Int, signer: URLSigner?) -> String {
        let kept = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()".utf8))
        let hex = Array("0123456789ABCDEF".utf8)
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map { segment in
            var out: [UInt8] = []
            for byte in segment.utf8 {
                if kept.contains(byte) { out.append(byte) } else { out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]] }
            }
            return String(decoding: out, as: UTF8.self)
        }
        let target =
            "/\(BlurOperation.named(ResizeOperation.name)!.flag)/" + segments.joined(separator: "/")
            + "?\(ResizeOperation.width.parameter.flag)=\(width)"
        return signer?.sign(target) ?? target
    }
}
