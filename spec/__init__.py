"""The dominokit rule data: variant YAML files and JSON Schemas, shipped inside the wheel."""
