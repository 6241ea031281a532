/// The playground page `blurkit serve` answers `/` with. Placeholder until written.
enum Playground {
    static let html = "<!doctype html><title>BlurKit</title>"
}
