import Foundation

/// Where a container identifier goes, by API (never by an argument label alone): Swift and
/// Objective-C spellings, each anchored at the end of the code before a literal or a name.
enum ContainerPatterns {
    /// `CKContainer(` or `CKContainer.init(`.
    static let containerInit = #"CKContainer\s*(?:\.\s*init\s*)?\("#
    /// `.private`, `CloudKitDatabase.private`, `ModelConfiguration.CloudKitDatabase.private`.
    static let database = #"(?:(?:ModelConfiguration\s*\.\s*)?CloudKitDatabase\s*)?\.\s*"#
    /// `cloudKitDatabase: .private(`, also as a branch of a ternary
    /// (`cloudKitDatabase: enableSync ? .private(…) : .none`).
    static let privateDatabase =
        #"cloudKitDatabase\s*:\s*(?:[^,;(){}]*[?:]\s*)?"# + database + #"private\s*\(\s*"#

    /// The API calls that take a container identifier, and the name findings give each.
    static let positions: [(pattern: String, call: String)] = [
        (containerInit + #"\s*identifier\s*:\s*"#, "CKContainer(identifier:)"),
        (#"containerWithIdentifier\s*:\s*@?"#, "[CKContainer containerWithIdentifier:]"),
        (privateDatabase, "ModelConfiguration cloudKitDatabase: .private"),
        (
            #"CloudKitDatabase\s*\.\s*private\s*\(\s*"#,
            "ModelConfiguration.CloudKitDatabase.private"
        ),
        (
            #"NSPersistentCloudKitContainerOptions\s*\(\s*containerIdentifier\s*:\s*"#,
            "NSPersistentCloudKitContainerOptions(containerIdentifier:)"
        ),
        (
            #"NSPersistentCloudKitContainerOptions\s+alloc\s*\]\s*initWithContainerIdentifier\s*:\s*@?"#,
            "NSPersistentCloudKitContainerOptions initWithContainerIdentifier:"
        )
    ]

    /// The default container: the first one the entitlements list, as Apple defines it.
    static let defaults: [(pattern: String, call: String)] = [
        (#"CKContainer\s*\.\s*default\s*\(\s*\)"#, "CKContainer.default()"),
        // `container: CKContainer = .default()` (a default parameter value, or a typed property).
        (#"CKContainer\s*[?!]?\s*=\s*\.\s*default\s*\(\s*\)"#, "CKContainer.default()"),
        (#"\[\s*CKContainer\s+defaultContainer\s*\]"#, "[CKContainer defaultContainer]"),
        (
            #"(?:cloudKitDatabase\s*:\s*(?:[^,;(){}]*[?:]\s*)?"# + database
                + #"|CloudKitDatabase\s*\.\s*)automatic\b"#,
            automaticCall
        )
    ]
    static let automaticCall = "ModelConfiguration cloudKitDatabase: .automatic"
    /// NSPersistentCloudKitContainer without options mirrors to the first container listed.
    static let persistentDefaults: [(pattern: String, call: String)] = [
        (#"NSPersistentCloudKitContainer\s*\(\s*name"#, "NSPersistentCloudKitContainer(name:)"),
        (#"NSPersistentCloudKitContainer\s+(?:alloc\s*\]\s*initWithName|persistentContainerWithName)"#,
         "NSPersistentCloudKitContainer initWithName:"),
    ]

    /// A name bound to a literal: `let NAME = "…"`, `static NSString *const NAME = @"…"`, a default
    /// parameter value (`NAME: String = "…"`), a computed `var NAME: String { "…" }`, an assignment
    /// (`self.NAME = "…"`). Only names a container API uses count.
    static let binding =
        #"([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*String\s*[?!]?\s*)?(?:=|\{\s*(?:return\s+)?)\s*@?\s*$"#
    /// An argument (`make(iCloudContainerId: "…")`): a binding of the parameter it names.
    static let argument = #"[(,]\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*$"#
    /// `#define NAME @"…"`.
    static let define = #"#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)\s+\(?\s*@?$"#

    /// The code before an Info.plist key: `Bundle.main.object(forInfoDictionaryKey: "KEY")`,
    /// `Bundle.main.infoDictionary?["KEY"]`, `[[NSBundle mainBundle]
    /// objectForInfoDictionaryKey:@"KEY"]`.
    static let infoPlistLookup = #"(?:Bundle\s*\.\s*main\s*\.\s*"#
        + #"(?:object\s*\(\s*forInfoDictionaryKey\s*:|infoDictionary\s*[?!]?\s*\[)"#
        + #"|\[\s*\[\s*NSBundle\s+mainBundle\s*\]\s*objectForInfoDictionaryKey\s*:\s*@?)\s*$"#
    /// A binding of what follows: `let NAME = ` (with `guard`/`if`), `NAME: String = `, before the
    /// lookup.
    static let infoPlistBinding =
        #"(?:let|var)\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=\n]*)?=\s*(?:\(\s*)?$"#

    /// Files that may name a container (the scanner reads them the same way).
    static let codeExtensions: Set<String> = ["swift", "m", "mm", "h"]
    /// Most files never mention CloudKit: they are not lexed.
    static let hints = [
        "CKContainer", "cloudKitDatabase", "CloudKitDatabase", "NSPersistentCloudKitContainer",
        "\"iCloud",
        "InfoDictionaryKey", "infoDictionary", "ontainerName", "ontainerIdentifier", "ontainerID"
    ]
}
