import BlurCore
import BlurScene
import Foundation
import Testing

/// blurAreas as a scene backdrop: placed in its layer's frame, clipped to it and its corners, and
/// read as every front end reads it.
@Suite struct BlurAreasSceneTests {
    static func scene(_ backdrop: String, corner: Double = 0) -> String {
        """
        {"width": 120, "height": 80,
         "layers": [{"frame": [0, 0, 120, 80], "content": {"gradient": {"from": "white", "to": "black", "start": [0, 0], "end": [1, 1]}}},
                    {"frame": [0, 0, 57, 80], "content": {"color": "#FF0000"}},
                    {"frame": [60, 37, 60, 43], "content": {"color": "#0000FF"}},
                    {"name": "fx", "frame": [30, 20, 60, 40], "cornerRadius": \(corner), "backdrop": \(backdrop)}]}
        """
    }

    /// Pixels outside the layer's frame (and its rounded corners) are the canvas's; areas are
    /// placed in the frame, percentages of its sides.
    @Test func areasStayInTheLayersFrame() throws {
        let plain = try SceneFile.parse(Array(Self.scene("{\"blur\": 0}").utf8)).scene.render(at: 0)
        for corner in [0.0, 15] {
            let drawn = try SceneFile.parse(Array(Self.scene(#"{"blurAreas": {"areas": "0,0,100%,100%", "sigma": 6}}"#, corner: corner).utf8))
                .scene.render(at: 0)
            var changedInside = 0
            for y in 0..<80 {
                for x in 0..<120 {
                    let inside = x >= 30 && x < 90 && y >= 20 && y < 60
                    let cornerCut = corner > 0 && (x < 34 || x >= 86) && (y < 24 || y >= 56)
                    if !inside || cornerCut {
                        #expect(drawn[x, y] == plain[x, y], "(\(x), \(y)) outside the frame changed, corner \(corner)")
                    } else if drawn[x, y] != plain[x, y] {
                        changedInside += 1
                    }
                }
            }
            #expect(changedInside > 1000, "corner \(corner): \(changedInside) pixels blurred inside")
        }
        // An area in the frame's top-left quarter leaves the rest of the frame alone.
        let quarter = try SceneFile.parse(Array(Self.scene(#"{"blurAreas": {"areas": "0,0,50%,50%", "sigma": 4}}"#).utf8)).scene.render(at: 0)
        #expect(quarter[80, 50] == plain[80, 50])
        #expect(quarter[56, 30] != plain[56, 30])
    }

    /// An exclusive pair is refused in a scene as everywhere else; an array holds one area a string.
    @Test func scenesReadAsTheOtherFrontEnds() throws {
        for backdrop in [
            #"{"progressive": {"angle": 90, "direction": "up"}}"#, #"{"blurAreas": {"areas": ["1,1,5,5;2,2,5,5"]}}"#,
            #"{"blurAreas": {"areas": ["1,1,5,5", ""]}}"#, #"{"blurAreas": {"areas": ["1,1,5,5", 3]}}"#,
        ] {
            #expect(throws: SceneFileError.self, "\(backdrop)") { _ = try SceneFile.parse(Array(Self.scene(backdrop).utf8)) }
        }
        _ = try SceneFile.parse(Array(Self.scene(#"{"blurAreas": {"areas": ["1,1,5,5", "ellipse:10%,10%,50%,50%:3:2"]}}"#).utf8))
    }
}
