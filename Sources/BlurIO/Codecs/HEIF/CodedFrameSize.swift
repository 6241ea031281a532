/// The frame size a coded image's own bitstream declares: an HEVC sequence parameter set's
/// `pic_width/height_in_luma_samples` (H.265 § 7.3.2.2), an AV1 sequence header's
/// `max_frame_width/height` (AV1 § 5.5). The decoders allocate by these, not by the `ispe` box, so
/// ``HEIFItems`` checks them before libheif decodes anything.
struct CodedFrameSize: Equatable {
    /// Luma samples.
    let width: Int, height: Int

    /// The size in an HEVC SPS NAL unit (with its two-byte header), or nil for another unit.
    static func hevc(nal: ArraySlice<UInt8>) throws(BitReader.End) -> CodedFrameSize? {
        guard nal.count > 2, (nal[nal.startIndex] >> 1) & 0x3F == 33 else { return nil }
        var reader = BitReader(ArraySlice(removingEmulationPrevention(nal.dropFirst(2))))
        try reader.skip(4)  // sps_video_parameter_set_id
        let subLayers = try reader.int(3)  // sps_max_sub_layers_minus1
        try reader.skip(1)
        // profile_tier_level(1, subLayers): the general profile (88 bits) and level (8).
        try reader.skip(96)
        var profilePresent: [Bool] = [], levelPresent: [Bool] = []
        for _ in 0..<subLayers {
            profilePresent.append(try reader.bits(1) == 1)
            levelPresent.append(try reader.bits(1) == 1)
        }
        if subLayers > 0 { try reader.skip(2 * (8 - subLayers)) }
        for i in 0..<subLayers {
            if profilePresent[i] { try reader.skip(88) }
            if levelPresent[i] { try reader.skip(8) }
        }
        _ = try reader.exponentialGolomb()  // sps_seq_parameter_set_id
        if try reader.exponentialGolomb() == 3 { try reader.skip(1) }  // chroma_format_idc, separate_colour_plane_flag
        return CodedFrameSize(width: try reader.exponentialGolomb(), height: try reader.exponentialGolomb())
    }

    /// The sizes in every SPS among length-prefixed NAL units (`lengthSize` bytes of length each).
    static func hevc(units: ArraySlice<UInt8>, lengthSize: Int) throws(BitReader.End) -> [CodedFrameSize] {
        var reader = BitReader(units), sizes: [CodedFrameSize] = []
        while reader.remaining > 0 {
            let length = try reader.int(8 * lengthSize)
            if let size = try hevc(nal: try reader.bytes(length)) { sizes.append(size) }
        }
        return sizes
    }

    /// The sizes in every sequence header among AV1 OBUs (low-overhead format: an OBU without a
    /// size field runs to the end).
    static func av1(obus: ArraySlice<UInt8>) throws(BitReader.End) -> [CodedFrameSize] {
        var reader = BitReader(obus), sizes: [CodedFrameSize] = []
        while reader.remaining > 0 {
            try reader.skip(1)  // obu_forbidden_bit
            let type = try reader.int(4), hasExtension = try reader.bits(1) == 1, hasSize = try reader.bits(1) == 1
            try reader.skip(1 + (hasExtension ? 8 : 0))
            let payload = try reader.bytes(hasSize ? try reader.leb128() : reader.remaining / 8)
            if type == 1 { sizes.append(try av1(sequenceHeader: payload)) }
        }
        return sizes
    }

    /// The largest frame an AV1 sequence header allows.
    static func av1(sequenceHeader: ArraySlice<UInt8>) throws(BitReader.End) -> CodedFrameSize {
        var reader = BitReader(sequenceHeader)
        try reader.skip(4)  // seq_profile, still_picture
        if try reader.bits(1) == 1 {  // reduced_still_picture_header
            try reader.skip(5)
        } else {
            var decoderModel = false, bufferDelayLength = 0
            if try reader.bits(1) == 1 {  // timing_info_present_flag
                try reader.skip(64)
                if try reader.bits(1) == 1 { _ = try reader.variableLengthCode() }
                decoderModel = try reader.bits(1) == 1
                if decoderModel {
                    bufferDelayLength = try reader.int(5) + 1
                    try reader.skip(32 + 5 + 5)
                }
            }
            let initialDisplayDelay = try reader.bits(1) == 1
            for _ in 0...(try reader.int(5)) {  // operating_points_cnt_minus_1
                try reader.skip(12)
                if try reader.int(5) > 7 { try reader.skip(1) }  // seq_level_idx, seq_tier
                if decoderModel, try reader.bits(1) == 1 { try reader.skip(2 * bufferDelayLength + 1) }
                if initialDisplayDelay, try reader.bits(1) == 1 { try reader.skip(4) }
            }
        }
        let widthBits = try reader.int(4) + 1, heightBits = try reader.int(4) + 1
        return CodedFrameSize(width: try reader.int(widthBits) + 1, height: try reader.int(heightBits) + 1)
    }

    /// An HEVC NAL unit's payload without its emulation-prevention bytes (`00 00 03` → `00 00`).
    private static func removingEmulationPrevention(_ payload: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = [], zeros = 0
        out.reserveCapacity(min(payload.count, 512))
        // The size comes within the first few dozen bytes of an SPS.
        for byte in payload.prefix(512) {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }
}
