import CGnuTLS
import Foundation

/// SHA-256 and HMAC-SHA256 from GnuTLS, as lower-case hex or bytes.
public enum Digest {
    /// SHA-256 of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBytes { raw in
            _ = gnutls_hash_fast(GNUTLS_DIG_SHA256, raw.baseAddress, raw.count, &digest)
        }
        return digest
    }

    /// HMAC-SHA256 of `message` under `key`.
    public static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        key.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                _ = gnutls_hmac_fast(GNUTLS_MAC_SHA256, k.baseAddress, k.count, m.baseAddress, m.count, &digest)
            }
        }
        return digest
    }

    /// `bytes` as lower-case hex.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out += [digits[Int(b >> 4)], digits[Int(b & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of a hex string (either case); nil for anything else or an odd length.
    public static func bytes(hex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            case 65...70: return c - 55
            default: return nil
            }
        }
        var out = [UInt8]()
        for i in stride(from: 0, to: utf8.count, by: 2) {
            guard let hi = value(utf8[i]), let lo = value(utf8[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
        }
        return out
    }
}
