import type { ComponentChildren } from "preact";
import { online } from "../state/network";
import { currentUser, signOut } from "../state/session";
import { t } from "../strings";
import { Button, Notice } from "./ui";

/** The frame of every page: a skip link, the header with the way to the scanner, the main area. */
export function Layout({ title, children }: { title: string; children: ComponentChildren }) {
  const user = currentUser.value;
  return (
    <>
      <a class="skip" href="#main" data-reload>
        {t.skipToContent}
      </a>
      <header class="top">
        <a class="brand" href="/">
          {t.appName}
        </a>
        {user && (
          <nav aria-label={t.nav.main}>
            <a class="btn btn-plain" href="/scan">
              {t.nav.scan}
            </a>
            <Button onClick={() => void signOut()}>{t.nav.signOut}</Button>
          </nav>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {!online.value && <Notice tone="warn">{t.offline}</Notice>}
        <h1>{title}</h1>
        {children}
      </main>
    </>
  );
}
