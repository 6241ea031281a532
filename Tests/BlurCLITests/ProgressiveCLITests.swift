import BlurCore
import BlurIO
import Foundation
import Testing

@Suite struct ProgressiveCLITests {
    let folder: String
    let input: String
    let photo: Bitmap

    init() throws {
        let workspace = try Workspace(crop: PixelRect(x: 60, y: 20, width: 200, height: 150))
        (folder, input, photo) = (workspace.folder, workspace.input, workspace.photo)
    }

    @Test func drawsWhatTheLibraryDraws() throws {
        let r = try CLI.run([
            "progressive", input, folder + "/out.pam", "--direction", "up", "--max-radius", "6",
            "--min-radius", "1", "--blur-inset", "20%", "--tint", "#102030", "--dimming", "0.7",
            "--dimming-inset", "10pt", "--dimming-extension", "none", "--region", "10,40,120,50",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        var effect = VariableBlurEffect(direction: .up)
        effect.maximumBlurRadius = 6
        effect.minimumBlurRadius = 1
        effect.blurMaximumRadiusInset = .relative(fraction: 0.2)
        effect.dimmingTintColor = DynamicColor(Color(hex: "#102030")!)
        effect.dimmingAlpha = .constant(alpha: 0.7)
        effect.dimmingFullColorInset = .absolute(position: 10)
        effect.dimmingClearExtension = nil
        let expected = effect.render(over: photo, frame: Rect(x: 10, y: 40, width: 120, height: 50))
        #expect(try ImageFile.read(folder + "/out.pam") == expected)
        #expect(expected != photo)
    }

    @Test func defaultsAndScale() throws {
        // Defaults: whole image, .down, 3.5 pt, light dimming with a 25 % extension (outside the image).
        #expect(try CLI.run(["progressive", input, folder + "/a.pam", "--scale", "2"]).status == 0)
        var retina = photo
        retina.scale = 2
        let expected = VariableBlurEffect().render(over: retina, frame: Rect(x: 0, y: 0, width: 100, height: 75))
        let out = try ImageFile.read(folder + "/a.pam")
        #expect(out.premultipliedRGBA == expected.premultipliedRGBA)
        // Dark appearance: a black tint at 0.25 darkens the top row.
        #expect(try CLI.run(["progressive", input, folder + "/d.pam", "--appearance", "dark"]).status == 0)
        let dark = try ImageFile.read(folder + "/d.pam")
        #expect(dark[100, 0].r < photo[100, 0].r)
    }

    @Test func helpListsTheOptions() throws {
        let help = String(decoding: try CLI.run(["progressive", "--help"]).stdout, as: UTF8.self)
        for text in [
            "--direction", "--max-radius R", "default 3.5", "--min-radius", "--blur-inset", "--tint", "--dimming A",
            "--dimming-inset", "--dimming-extension", "default 25%", "--appearance", "--region X,Y,W,H", "--scale K",
        ] {
            #expect(help.contains(text), "help lacks \(text)")
        }
    }

    @Test func badParametersAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["--max-radius", "nan"], "max-radius"), (["--max-radius", "-1"], "max-radius"), (["--max-radius", "1e9"], "max-radius"),
            (["--min-radius", "inf"], "min-radius"), (["--direction", "sideways"], "direction"),
            (["--region", "1,2,3"], "--region"), (["--region", "0,0,-5,10"], "--region"), (["--region", "5000,0,10,10"], "outside"),
            (["--tint", "#12"], "--tint"), (["--dimming", "2"], "dimming"), (["--blur-inset", "-5"], "--blur-inset"),
            (["--dimming-extension", "nan%"], "--dimming-extension"), (["--appearance", "sepia"], "appearance"),
            (["--scale", "0"], "scale"),
        ]
        for (extra, word) in cases {
            let r = try CLI.run(["progressive", input, folder + "/o.png"] + extra)
            #expect(r.status == 2 && r.stderr.hasPrefix("blurkit: ") && r.stderr.contains(word), "\(extra): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/o.png"))
    }
}

@Suite struct MaterialCLITests {
    @Test func drawsWhatTheLibraryDraws() throws {
        let folder = try Workspace(crop: PixelRect(x: 0, y: 0, width: 8, height: 8)).folder
        let fixture = Workspace.fixture
        let r = try CLI.run([
            "material", fixture, folder + "/out.pam", "--style", "thin", "--appearance", "dark",
            "--region", "20,30,200,100", "--corner-radius", "15", "--radius", "10", "--dimming", "0.6",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let expected = Material(style: .systemThinMaterial, blurEffectRadius: 10, dimmingAlpha: 0.6, cornerRadius: 15)
            .render(over: try ImageFile.read(fixture), frame: Rect(x: 20, y: 30, width: 200, height: 100), appearance: .dark)
        #expect(try ImageFile.read(folder + "/out.pam") == expected)
        let help = String(decoding: try CLI.run(["material", "--help"]).stdout, as: UTF8.self)
        for text in ["--style", "--appearance", "--region", "--corner-radius R", "--radius R", "default 24", "--dimming A", "--scale K"] {
            #expect(help.contains(text), "help lacks \(text)")
        }
        for (extra, word) in [
            (["--style", "glass"], "style"), (["--radius", "nan"], "radius"), (["--dimming", "-1"], "dimming"),
            (["--corner-radius", "inf"], "corner-radius"),
        ] {
            let bad = try CLI.run(["material", fixture, folder + "/o.png"] + extra)
            #expect(bad.status == 2 && bad.stderr.contains(word), "\(extra): \(bad.stderr)")
        }
    }
}
