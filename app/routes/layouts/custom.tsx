import { Outlet } from 'react-router'
import { AuthShell } from '#app/ui/auth-shell.tsx'

export default function CustomLayout() {
  return (
    <AuthShell>
      <Outlet />
    </AuthShell>
  )
}
