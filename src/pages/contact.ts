import { json, publicRoute } from '../server/http/endpoint.ts';
import { wantsJson } from '../server/http/forms.ts';
import { validate } from '../server/http/validate.ts';
import { ContactInput, sendContactMessage } from '../server/site/contact.ts';

/** The contact form's target (POST from /contact-us); lands on /successfully-send. */
export const ALL = publicRoute(
  {
    POST: async ({ ctx, body, ip, astro }) => {
      await sendContactMessage(ctx, validate(ContactInput, body), ip);
      if (!wantsJson(astro.request)) return astro.redirect('/successfully-send', 303);
      return json({ message: 'Your message was sent.' }, 201);
    },
  },
  { formErrorRedirect: () => '/contact-us' },
);
