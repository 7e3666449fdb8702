




















































			treeControllerDelegate.isReadFiltered = newValue
		}
	}
	var expandedTable = Set<ContainerIdentifier>()

    var undoableCommands = [UndoableCommand]()
	private var animatingChanges = false













































	func restoreState(from state: SidebarWindowState?) {
		guard let state else { return }

		let containerIdentifiers = state.expandedContainers.compactMap( { ContainerIdentifier(userInfo: $0) })
		expandedTable = Set(containerIdentifiers)

		let selectedFeedIdentifiers = Set(state.selectedFeeds.compactMap( { SidebarItemIdentifier(userInfo: $0) }))
		for identifier in selectedFeedIdentifiers {




























	func restoreLegacyState(from state: [AnyHashable: Any]) {

		if let containerExpandedWindowState = state[UserInfoKey.containerExpandedWindowState] as? [[AnyHashable: AnyHashable]] {
			let containerIdentifiers = containerExpandedWindowState.compactMap( { ContainerIdentifier(userInfo: $0) })
			expandedTable = Set(containerIdentifiers)
		}

		guard let selectedFeedsState = state[UserInfoKey.selectedFeedsState] as? [[String: String]] else {
