















final class ShareFolderPickerController: UITableViewController {

	var containers: [ExtensionContainer]?
	var selectedContainerID: ContainerIdentifier?

	weak var delegate: ShareFolderPickerControllerDelegate?
