import { index, layout, route, type RouteConfig } from '@react-router/dev/routes'

// Every page lives under /:lang (ar or en). `/` and paths without a language redirect.
export default [
  index('routes/redirect-to-language.tsx'),
  route(':lang', 'routes/lang.tsx', [
    layout('routes/layouts/default.tsx', [
      index('routes/home.tsx'),
      route('packages', 'routes/packages.tsx'),
      route('about-us', 'routes/about-us.tsx'),
      route('common-questions', 'routes/common-questions.tsx'),
      route('contact-us', 'routes/contact-us.tsx'),
      route('privacy-policy', 'routes/privacy-policy.tsx'),
      route('terms', 'routes/terms.tsx'),
      route('profile', 'routes/profile.tsx'),
      route('notifications', 'routes/notifications.tsx'),
      route('rates', 'routes/rates.tsx'),
      route('logout', 'routes/logout.tsx'),
      route('checkout/:packageId', 'routes/checkout.tsx'),
      route('payments/callback', 'routes/payment-callback.tsx'),
      route('payments/result/:paymentId', 'routes/payment-result.tsx'),
      route('subscriptions', 'routes/subscriptions.tsx'),
      route('invoices/:invoiceId', 'routes/invoice.tsx'),
      route('analysis', 'routes/analysis.tsx'),
      route('single-analysis', 'routes/single-analysis.tsx'),
      route('last-multiple', 'routes/last-multiple.tsx'),
    ]),
    route('analysis/upload', 'routes/analysis-upload.tsx'),
    route('analysis/sample.xlsx', 'routes/analysis-sample.tsx'),
    route('analyses/:analysisId/export.xlsx', 'routes/analysis-export.tsx', { id: 'analysis-export-xlsx' }),
    route('analyses/:analysisId/export.pdf', 'routes/analysis-export.tsx', { id: 'analysis-export-pdf' }),
    route('invoices/:invoiceId/pdf', 'routes/invoice-pdf.tsx'),
    layout('routes/layouts/custom.tsx', [
      route('SignIn', 'routes/sign-in.tsx'),
      route('verify-otp', 'routes/verify-otp.tsx'),
      route('reset-password', 'routes/reset-password.tsx'),
      route('sandbox-pay', 'routes/sandbox-pay.tsx'),
      route('payments/pay/:paymentId', 'routes/gateway-pay.tsx'),
    ]),
    // No layout: these pages draw their own shell.
    route('login', 'routes/login.tsx'),
    route('forget-password', 'routes/forget-password.tsx'),
    route('*', 'routes/not-found.tsx'),
  ]),
] satisfies RouteConfig
