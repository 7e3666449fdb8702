import ProjectDescription
import ProjectDescriptionHelpers

let project = appFrameworkProject(
    name: "Core",
    product: .framework
)
