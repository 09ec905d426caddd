export * from './index.ts'
export { listPackages, packageToJson, packageWire, type ListPackagesOptions } from './list-packages.server.ts'
export { browserCheckoutFor, findUserPayment, findUserPaymentByGatewayId, startCheckout } from './checkout.server.ts'
export { gatewayFor, sandboxFor } from './gateway.server.ts'
export { SANDBOX_CARD_FAILS, SANDBOX_CARD_SUCCEEDS, SandboxCardRejected, sandboxWebhookSecret } from './gateways/sandbox.server.ts'
export { GatewayError, type PaymentGateway, type PaymentMethod } from './gateways/types.ts'
export {
  findInvoiceById,
  findUserInvoice,
  invoiceDocumentOf,
  invoicePdfResponse,
  invoiceToJson,
  invoiceWire,
  listUserInvoices,
  type InvoiceRow,
} from './invoices.server.ts'
export { reconcilePayments, settlePayment } from './settle-payment.server.ts'
export {
  currentSubscription,
  listSubscriptions,
  notifySubscriptionEndings,
  requireSubscription,
  subscriptionToJson,
  subscriptionWire,
  type SubscriptionView,
} from './subscriptions.server.ts'
export { halalasToDecimal, readZatcaQr, zatcaQr } from './zatca-qr.ts'
export { qrSvg, qrSvgDataUrl } from './qr-svg.ts'
export { requireSubscriberPage } from './access.server.ts'
export {
  addPackage,
  createPackage,
  editPackage,
  findPackage,
  listAllPackages,
  parsePrice,
  setPackageActive,
  updatePackage,
  type PackageForm,
  type PackageRow,
} from './packages-admin.server.ts'
export { findPaymentDetail, searchPayments, type OperatorPaymentDetail, type PaymentSummary } from './payments-admin.server.ts'
export { refundPayment, type CreditNoteRow, type RefundPaymentOptions, type RefundResult } from './refund-payment.server.ts'
export {
  creditNoteDocumentOf,
  creditNotePdfResponse,
  creditNoteToJson,
  creditNoteWire,
  findCreditNote,
  findInvoiceCreditNote,
  listUserCreditNotes,
} from './credit-notes.server.ts'
