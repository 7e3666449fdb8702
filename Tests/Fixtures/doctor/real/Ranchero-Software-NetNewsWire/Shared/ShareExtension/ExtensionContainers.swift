










protocol ExtensionContainer: Codable {
	var name: String { get }
	var accountID: String { get }
	var containerID: ContainerIdentifier? { get }
}

struct ExtensionContainers: Codable {


































	let accountID: String
	let type: AccountType
	let disallowFeedInRootFolder: Bool
	let containerID: ContainerIdentifier?
	let folders: [ExtensionFolder]

	@MainActor init(account: Account) {











		self.accountID = try container.decode(String.self, forKey: .accountID)
		self.type = try container.decode(AccountType.self, forKey: .type)
		self.disallowFeedInRootFolder = try container.decode(Bool.self, forKey: .disallowFeedInRootFolder)
		self.containerID = try container.decodeIfPresent(ContainerIdentifier.self, forKey: .containerID)
		self.folders = try container.decode([ExtensionFolder].self, forKey: .folders)
	}


























	let accountName: String
	let accountID: String
	let name: String
	let containerID: ContainerIdentifier?

	@MainActor init(folder: Folder) {
		self.accountName = folder.account?.nameForDisplay ?? ""
