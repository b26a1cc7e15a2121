// The boot script's source (boot-script.ts writes it into index.html at build time). Apart
// from the plugin so that the app's tests run it as the browser does (lib/api-client.test.ts).

/** BootData is what the script needs: the session call, and what a guest and each role preload at /. */
export type BootData = {
  session: string;
  guest: string[];
  roles: Record<string, { api: string[]; js: string[] }>;
};

/**
 * bootScript is the script's source for data. ES5, no template literals: it runs before
 * anything else, in any browser the app supports. b is window.__boot, f the GET.
 */
export function bootScript(data: BootData): string {
  return (
    "window.__boot={};(function(b,f,d){" +
    "var u=b[d.session]=f(d.session);if(location.pathname!==\"/\")return;" +
    "function pre(h){var k=document.createElement(\"link\");k.rel=\"modulepreload\";k.crossOrigin=\"\";k.href=h;k.setAttribute(\"data-boot\",\"\");document.head.appendChild(k)}" +
    "u.then(function(r){if(r.status===401){d.guest.forEach(pre);return null}return r.ok?r.clone().json():null})" +
    ".then(function(x){var p=x&&x.isApproved===\"approved\"&&!x.mustResignTerms?d.roles[x.role]:null;if(!p)return;" +
    "p.api.forEach(function(a){a in b||(b[a]=f(a))});p.js.forEach(pre)}).catch(function(){})" +
    "})(window.__boot,function(u){return fetch(u,{credentials:\"include\",headers:{Accept:\"application/json\"}})}," +
    JSON.stringify(data) +
    ");"
  );
}

