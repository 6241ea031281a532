import BlurIO
import BlurTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An output path that is not a regular file: the atomic write follows a symbolic link, writes a
/// device or a FIFO in place, and refuses a folder — it never renames a file over any of them (it
/// once replaced `/dev/null` itself when run as root).
@Suite struct OutputTargetTests {
    /// The kind of node at `path`, not following a link (`S_IFREG`, `S_IFLNK`, …), or nil.
    private func kind(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    private func contents(_ path: String) -> [UInt8]? { try? AtomicFile.read(path) }

    @Test func aSymbolicLinkStaysAndItsTargetIsReplaced() throws {
        let folder = TestImages.temporaryFolder()
        try AtomicFile.write([9, 9], to: folder + "/target.bin")
        #expect(symlink("target.bin", folder + "/link.bin") == 0)
        try AtomicFile.write([1, 2, 3], to: folder + "/link.bin")
        #expect(kind(folder + "/link.bin") == S_IFLNK)
        #expect(contents(folder + "/target.bin") == [1, 2, 3])

        let stream = try OutputFile(path: folder + "/link.bin")
        try [UInt8]([4, 5]).withUnsafeBytes { try stream.write($0) }
        try stream.commit()
        #expect(kind(folder + "/link.bin") == S_IFLNK)
        #expect(contents(folder + "/target.bin") == [4, 5])
    }

    @Test func aLinkToNothingCreatesItsTarget() throws {
        let folder = TestImages.temporaryFolder()
        #expect(symlink(folder + "/made.bin", folder + "/dangling.bin") == 0)
        try AtomicFile.write([7], to: folder + "/dangling.bin")
        #expect(kind(folder + "/dangling.bin") == S_IFLNK)
        #expect(contents(folder + "/made.bin") == [7])
    }

    @Test func aFIFOIsWrittenInPlace() throws {
        let folder = TestImages.temporaryFolder(), fifo = folder + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        for write in [
            { try AtomicFile.write(Array(0..<200), to: fifo) },
            {
                let stream = try OutputFile(path: fifo)
                try Array(UInt8(0)..<200).withUnsafeBytes { try stream.write($0) }
                try stream.commit()
            },
        ] as [() throws -> Void] {
            // The reader opens the FIFO on its own thread; the writer's open waits for it.
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var received: [UInt8]?
            Thread.detachNewThread {
                received = try? AtomicFile.read(fifo)
                done.signal()
            }
            try write()
            // Were the FIFO replaced, its reader would wait for ever: a failure, not a hang.
            #expect(done.wait(timeout: .now() + 20) == .success)
            #expect(received == Array(0..<200))
            #expect(kind(fifo) == S_IFIFO)
        }
    }

    @Test func aCharacterDeviceIsWrittenInPlace() throws {
        let folder = TestImages.temporaryFolder(), device = folder + "/null"
        // A private copy of /dev/null (major 1, minor 3): making one needs root; elsewhere there is
        // nothing to check.
        guard mknod(device, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 else { return }
        try AtomicFile.write([1, 2, 3], to: device)
        #expect(kind(device) == S_IFCHR)
        let stream = try OutputFile(path: device)
        try [UInt8]([4]).withUnsafeBytes { try stream.write($0) }
        try stream.commit()
        #expect(kind(device) == S_IFCHR)
    }

    @Test func aFolderIsRefusedSayingSo() throws {
        let folder = TestImages.temporaryFolder()
        #expect(throws: FileError.cannotWrite(path: folder, reason: "it is a folder")) { try AtomicFile.write([1], to: folder) }
        #expect(throws: FileError.cannotWrite(path: folder + "/", reason: "it names a folder, not a file")) {
            try AtomicFile.write([1], to: folder + "/")
        }
        #expect(throws: FileError.cannotWrite(path: folder, reason: "it is a folder")) { _ = try OutputFile(path: folder) }
        #expect(FileManager.default.fileExists(atPath: folder))
    }

    @Test func aLoopOfLinksIsAnErrorNotAHang() throws {
        let folder = TestImages.temporaryFolder()
        #expect(symlink("b", folder + "/a") == 0)
        #expect(symlink("a", folder + "/b") == 0)
        #expect(throws: FileError.cannotWrite(path: folder + "/a", reason: "more than 40 symbolic links")) {
            try AtomicFile.write([1], to: folder + "/a")
        }
        #expect(kind(folder + "/a") == S_IFLNK)
    }
}
