/// Faces chosen for what they must show. Family names: Noto Sans, with fontconfig falling back to
/// the Noto face of each script (Arabic, Hebrew, Devanagari, Thai) and to Noto Sans CJK. Codes:
/// DejaVu Sans Mono Bold, whose 0 is slashed and whose 1, I, 8, B, 5, S, 2 and Z
/// all differ, so a code typed from paper is typed right even with the app's older codes.
enum SheetFonts {
    /// Listed rather than left to fontconfig, which would take DejaVu Sans for Arabic and Hebrew.
    static let scripts =
        "Noto Sans, Noto Sans Arabic, Noto Sans Hebrew, Noto Sans Devanagari, Noto Sans Thai"
    static let code = "DejaVu Sans Mono Bold"

    /// The faces for text in `language`: Han characters are drawn differently in Chinese,
    /// Japanese and Korean, so the CJK face is the language's (Simplified Chinese unless the
    /// language says otherwise).
    static func text(_ language: CJKLanguage) -> String {
        "\(scripts), Noto Sans CJK \(language.face)"
    }

    enum CJKLanguage: Equatable {
        case simplifiedChinese, traditionalChinese, japanese, korean

        var face: String {
            switch self {
            case .simplifiedChinese: return "SC"
            case .traditionalChinese: return "TC"
            case .japanese: return "JP"
            case .korean: return "KR"
            }
        }

        /// The BCP 47 tag pango is given with the face.
        var tag: String {
            switch self {
            case .simplifiedChinese: return "zh-cn"
            case .traditionalChinese: return "zh-tw"
            case .japanese: return "ja"
            case .korean: return "ko"
            }
        }

        /// A template's `language`, when it is one of the four.
        init?(tag: String) {
            let parts = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
            switch parts.first {
            case "ja": self = .japanese
            case "ko": self = .korean
            case "zh":
                let traditional = parts.dropFirst().contains {
                    ["hant", "tw", "hk", "mo"].contains($0)
                }
                self = traditional ? .traditionalChinese : .simplifiedChinese
            default: return nil
            }
        }

        /// A name's own script when it tells (kana: Japanese, Hangul: Korean); Han alone is the
        /// template's CJK language, or Simplified Chinese.
        init(name: String, template: CJKLanguage?) {
            for scalar in name.unicodeScalars {
                switch scalar.value {
                case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: self = .japanese; return
                case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: self = .korean; return
                default: continue
                }
            }
            self = template ?? .simplifiedChinese
        }
    }
}
