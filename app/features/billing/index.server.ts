export * from './index.ts'
export { listPackages, packageToJson, type ListPackagesOptions } from './list-packages.server.ts'
