import BlurKit
let args = CommandLine.arguments
let img = try ImageFile.read("Tests/Fixtures/chelsea.png")
for edges in EdgeMode.allCases {
  for s in [0.5, 1, 2, 3, 3.9, 4, 5, 6, 8, 12, 16, 24, 40, 64, 100] {
    let g = try GaussianBlur(sigma: s, edges: edges)
    let r = g.reference(img), f = g.apply(to: img)
    print(edges, s, ImageDifference(r, f))
  }
}
