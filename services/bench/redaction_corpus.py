"""Deterministic corpus of LLM prompts, with ground truth, for the redaction benchmark.

Three categories of prompts, as a user would type them into a chat box or paste them from a terminal:

* ``pii``: prompts that embed personal data (names, places, contact details, card and bank numbers...);
* ``secret``: prompts that embed credentials (cloud keys, tokens, private keys, passwords...);
* ``clean``: prompts with neither (code, hashes, UUIDs, versions, stack traces, maths, chat), which a
  redactor must leave exactly as they are.

Every sample records the values it embeds, as they appear in its text, with their entity type named as in
``services.redaction.types``. Values are random but well formed (valid Luhn, IBAN check digits, US SSN ranges,
real token prefixes and lengths); none is a real secret. The corpus depends only on ``(n, seed)``.

Templates hold slots written ``<<name>>`` (or ``<<name#2>>`` for a second, distinct value of the same kind);
the same slot written twice in one template takes the same value.
"""

from __future__ import annotations

import base64
import itertools
import json
import random
import re
import string
import unicodedata
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from faker import Faker

from services.bench.canaries import luhn_check_digit
from services.redaction.types import NER_ENTITY_TYPES, PATTERN_PII_ENTITY_TYPES, SECRET_ENTITY_TYPES

PII = "pii"
SECRET = "secret"
CLEAN = "clean"
CATEGORIES: tuple[str, ...] = (PII, SECRET, CLEAN)

# Share of each category in a corpus; clean prompts are a quarter so that the clean-altered rate of a
# 300-sample run is measured on 75 prompts.
DEFAULT_MIX: Mapping[str, float] = {PII: 0.45, SECRET: 0.30, CLEAN: 0.25}

# Bounds on the length of a prompt, in characters.
MIN_CHARS = 50
MAX_CHARS = 600

PII_ENTITY_TYPES: frozenset[str] = PATTERN_PII_ENTITY_TYPES | NER_ENTITY_TYPES


class Entity(NamedTuple):
    """One embedded value: its entity type and the value exactly as it appears in the text."""

    entity_type: str
    value: str


@dataclass(frozen=True, slots=True)
class Sample:
    """One prompt and its ground truth."""

    sample_id: str
    category: str  # one of CATEGORIES
    text: str
    entities: tuple[Entity, ...]  # empty for clean prompts
    template: str  # id of the template it was made from, for diagnostics

    @property
    def entity_types(self) -> frozenset[str]:
        return frozenset(e.entity_type for e in self.entities)


# --------------------------------------------------------------------------------------------------------
# Value vocabularies (data, not logic).

_CITIES = (
    "New York", "Chicago", "Seattle", "Austin", "Denver", "Boston", "San Francisco", "Los Angeles",
    "Philadelphia", "Atlanta", "Toronto", "Vancouver", "Montreal", "London", "Manchester", "Edinburgh",
    "Dublin", "Paris", "Lyon", "Marseille", "Berlin", "Munich", "Hamburg", "Madrid", "Barcelona", "Lisbon",
    "Rome", "Milan", "Naples", "Amsterdam", "Rotterdam", "Brussels", "Stockholm", "Oslo", "Copenhagen",
    "Warsaw", "Krakow", "Prague", "Vienna", "Zurich", "Geneva", "Istanbul", "Athens", "Cairo", "Lagos",
    "Nairobi", "Johannesburg", "Cape Town", "Mumbai", "Bangalore", "Delhi", "Karachi", "Dhaka", "Tokyo",
    "Osaka", "Seoul", "Beijing", "Shanghai", "Singapore", "Jakarta", "Manila", "Sydney", "Melbourne",
    "Auckland", "Mexico City", "Guadalajara", "São Paulo", "Rio de Janeiro", "Buenos Aires", "Bogotá",
    "Lima", "Santiago", "Houston", "Phoenix", "Portland", "Miami", "Minneapolis", "Nashville",
)
_COUNTRIES = (
    "Germany", "France", "Spain", "Italy", "Portugal", "Canada", "Mexico", "Brazil", "Argentina", "Japan",
    "South Korea", "India", "Nigeria", "Kenya", "Egypt", "Australia", "New Zealand", "Ireland", "Poland",
    "Sweden", "Norway", "Denmark", "Finland", "Turkey", "Vietnam", "Thailand", "Indonesia", "Philippines",
    "Colombia", "Chile", "Peru", "South Africa", "Morocco", "Greece", "Switzerland", "Austria", "Belgium",
    "Ukraine", "Romania", "Pakistan", "Bangladesh", "China", "Israel", "Ghana", "Ethiopia",
)
_NRPS = (
    # nationalities
    "Mexican", "Nigerian", "Korean", "Vietnamese", "Brazilian", "Polish", "Irish", "Ethiopian", "Filipino",
    "Iranian", "Turkish", "Ukrainian", "Pakistani", "Colombian", "Japanese", "Indian", "Italian", "German",
    "Chinese", "French", "Canadian", "Somali", "Haitian", "Greek", "Moroccan", "Cuban", "Armenian",
    # religions
    "Catholic", "Muslim", "Jewish", "Hindu", "Buddhist", "Sikh", "Mormon", "Evangelical", "Protestant",
    "Baptist", "Lutheran", "Orthodox",
    # political groups
    "Republican", "Democrat", "Socialist", "Conservative", "Libertarian", "Communist", "Green Party",
)
# Locales for names and the share of names drawn from each.
_NAME_LOCALES = ("en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "en_IN", "pt_BR", "pl_PL", "nl_NL")
_NAME_WEIGHTS = (5, 2, 1, 1, 1, 1, 1, 1, 1, 1)
_STREET_LOCALES = ("en_US", "en_GB", "de_DE")
# Faker locales whose city() draws real town names (en_US, en_GB, fr_FR and pt_BR make names up: "Lake
# Jessica", "Pascal-sur-Besson").
_REAL_CITY_LOCALES = frozenset({"de_DE", "es_ES", "it_IT", "nl_NL", "pl_PL", "en_IN"})
# Locales for `generate(..., locales=WORLD_LOCALES)`: names, towns and streets of Europe, Brazil and India.
WORLD_LOCALES: tuple[str, ...] = ("en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "pt_BR", "nl_NL", "pl_PL", "en_IN")
_STREET_WEIGHTS = (4, 1, 1)
_FREE_MAIL = ("gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "icloud.com", "proton.me", "gmx.de")
_WORK_MAIL = (
    "acme-corp.com", "northwind.io", "globex.net", "initech.com", "umbrella-health.org", "contoso.co.uk",
    "hooli.xyz", "stark-industries.com", "wayne-enterprises.net", "blueharbor.de",
)
_US_AREA_CODES = (
    "212", "415", "312", "617", "206", "512", "303", "404", "305", "713", "602", "702", "503", "919", "615",
    "801", "858", "646", "718", "202", "214", "469", "310", "408", "773", "267", "720", "971", "336", "612",
)
_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December",
)

# Fillers: values that are not personal data and not secrets.
_PRODUCTS = (
    "MacBook Air M3", "ThinkPad X1 Carbon", "iPhone 15", "Pixel 8", "Raspberry Pi 5", "Steam Deck",
    "Kindle Paperwhite", "PlayStation 5", "Surface Pro 9", "Galaxy S24", "RTX 4090", "Apple Watch Series 9",
    "Dell XPS 13", "Framework Laptop 13", "iPad Air", "Nintendo Switch", "Chromebook Plus", "Mac mini M2",
)
_DB_USERS = ("app", "svc_orders", "analytics_ro", "postgres", "admin", "billing", "etl_user", "webapp")
_DB_NAMES = ("orders", "billing", "analytics", "users", "inventory", "app_prod", "metrics", "crm")
_HOSTS = (
    "db.internal", "pg-prod-1.acme.internal", "localhost", "db.example.net", "mysql.staging.svc",
    "cache.prod.local", "rabbit.internal", "primary.db.corp",
)
_HTTP_CODES = ("400", "401", "403", "404", "409", "418", "422", "429", "500", "502", "503", "504")
_EXIT_CODES = ("1", "2", "126", "127", "137", "139", "143")

# Neutral sentences put before or after a prompt (each with probability _DRESS_P) so that values sit at
# varied positions and lengths vary as in real chat; they hold no personal data and no secret.
_LEAD_INS = (
    "Quick question.", "I'm working on a side project and got stuck.", "Sorry if this is a basic question.",
    "Context: we're a small team and nobody here is an expert on this.", "Hi! Hope you're doing well.",
    "This is for work and it's a bit urgent.", "Following up on what we discussed earlier:",
    "I've been trying to figure this out for two hours.", "Please answer in plain English.",
    "Long story short:", "I need a second opinion on something.", "ok so here's the situation.",
)
_FOLLOW_UPS = (
    "Thanks in advance!", "Please keep the answer short.", "Use bullet points if possible.",
    "Explain it like I'm five.", "I'd appreciate a step-by-step answer.", "If you need more details, ask me first.",
    "Also, what would you do differently?", "Answer in under 150 words please.", "thx",
    "No need to repeat my question back to me.", "Bonus points for a code example.", "Be honest, please.",
)
_DRESS_P = 0.3

_ALNUM = string.ascii_letters + string.digits
_B32 = string.ascii_uppercase + "234567"
_B64 = _ALNUM + "+/"
_B64URL = _ALNUM + "-_"
_HEX = "0123456789abcdef"
_PW_SYMBOLS = "!*-_.~"  # safe inside URLs, quotes, JSON and shell single quotes
_WORDS = (
    "correct", "horse", "battery", "staple", "orange", "river", "falcon", "maple", "copper", "winter",
    "rocket", "violet", "harbor", "pepper", "cobalt", "meadow", "silver", "thunder", "lantern", "quartz",
)

# Secret types that the generic ``<<key>>`` slot stands for, with how people name them.
_KEY_KINDS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "GITHUB_TOKEN": (("GitHub token", "GitHub personal access token", "GH PAT"), ("GITHUB_TOKEN", "GH_TOKEN")),
    "GITLAB_TOKEN": (("GitLab token", "GitLab PAT", "GitLab access token"), ("GITLAB_TOKEN", "GL_TOKEN")),
    "SLACK_TOKEN": (("Slack bot token", "Slack token"), ("SLACK_BOT_TOKEN", "SLACK_TOKEN")),
    "STRIPE_KEY": (("Stripe secret key", "Stripe live key"), ("STRIPE_SECRET_KEY", "STRIPE_API_KEY")),
    "GOOGLE_API_KEY": (("Google API key", "Maps API key", "Gemini API key"),
                       ("GOOGLE_API_KEY", "GEMINI_API_KEY", "MAPS_API_KEY")),
    "OPENAI_API_KEY": (("OpenAI key", "OpenAI API key"), ("OPENAI_API_KEY",)),
    "GENERIC_SECRET": (("API key", "access key", "service token"), ("API_KEY", "SERVICE_TOKEN", "APP_SECRET")),
    "JWT": (("JWT", "access token", "id token"), ("ACCESS_TOKEN", "ID_TOKEN", "JWT")),
    "AWS_ACCESS_KEY_ID": (("AWS access key id", "AWS key"), ("AWS_ACCESS_KEY_ID",)),
    "AWS_SECRET_KEY": (("AWS secret access key", "AWS secret"), ("AWS_SECRET_ACCESS_KEY",)),
}


# --------------------------------------------------------------------------------------------------------
# Templates. Entity slots: see _ENTITY_SLOTS; filler slots: see _Filler.

_PII_TEMPLATES: tuple[str, ...] = (
    "Hi, my name is <<person>> and I live in <<city>>. Can you help me write a short bio for a conference?",
    "Please draft a polite email to my landlord <<person>> asking to fix the heating at <<street>>, <<city>>.",
    "Rewrite this more formally: 'hey <<first>>, call me back at <<phone>> when u can'",
    "My SSN is <<ssn>> and the IRS portal keeps rejecting it. What could be wrong with the format?",
    "Can you check if this card number is valid? <<card>> exp 08/27",
    "I need to wire money to IBAN <<iban>>. What information does my bank usually need besides the IBAN?",
    "Our server at <<ipv4>> keeps dropping SSH connections after a few minutes, any ideas?",
    "Write a cover letter for <<person>> (<<email>>, <<phone>>) applying for a data analyst role.",
    "Summarize this support ticket: Customer <<person>> reported a double charge on card <<card>>. "
    "Contact: <<email>>.",
    "Fill in this form for me:\nName: <<person>>\nDOB: <<dob>>\nSSN: <<ssn>>\nAddress: <<street>>, <<city>>\n"
    "Phone: <<phone>>",
    "translate to spanish: My name is <<person>>, I was born on <<dob>> in <<city>>, <<country>>.",
    "The device with MAC <<mac>> keeps getting a new DHCP lease every hour; the router log shows it at "
    "<<ipv4>>. Why?",
    "I am a <<nrp>> student moving to <<city>> next month. What should I know about renting an apartment there?",
    "As a <<nrp>> family we keep a strict diet. Suggest a weekly meal plan for four people.",
    "Write a LinkedIn recommendation for my former colleague <<person>>, who led our team in <<city>> for "
    "three years.",
    "My wife <<person>> and I (<<person#2>>) are planning a trip from <<city>> to <<country>> in May. "
    "Build an itinerary.",
    "Please format this contact as a vCard:\n<<person>>\n<<street>>\n<<city>>\n<<phone_intl>>\n<<email>>",
    "Is <<email>> a valid email address? Our signup form rejects it.",
    "Reply to this message for me: 'Hello, this is <<person>> from the clinic, please call us back at "
    "<<phone>> regarding your appointment.'",
    "I got a text from <<phone_intl>> claiming to be my bank. Is this a scam?",
    "Help me dispute a charge. Card: <<card>>. Cardholder: <<person>>. Billing address: <<street>>, <<city>>.",
    "Convert this to JSON: name=<<person>>; email=<<email>>; ip=<<ipv4>>; country=<<country>>",
    "CSV row parsing fails on this line, why?\n<<person>>,<<email>>,<<phone>>,<<city>>",
    "The firewall blocked traffic from <<ipv6>> to our API. How do I allow a single IPv6 address in nginx?",
    "My date of birth is <<dob>>. How many days old am I?",
    "Patient <<person>>, DOB <<dob>>, presented with mild fever and a cough. Write a discharge summary.",
    "my daughter <<first>> was born on <<dob>>; what vaccines are due at her age?",
    "Update my payroll details: IBAN <<iban>>, account holder <<person>>.",
    "Send a reminder to <<email>> and <<email#2>> that the quarterly review moved to Thursday.",
    "Explain what this log line means: 'sshd: Invalid user admin from <<ipv4>> port 52144'",
    "We got a GDPR request from <<person>> (<<email>>) living in <<country>>. What data do we have to delete?",
    "Rewrite this tweet to sound less angry: '@support my order still hasn't arrived at <<street>>, "
    "<<city>>!!! call me <<phone>>'",
    "Could you write a short speech introducing our keynote speaker, <<person>>, a <<nrp>> physicist from "
    "<<city>>?",
    "My neighbour <<person>> keeps parking in front of my driveway on <<street>>. How do I politely bring it up?",
    "The bank asked me to confirm the last payment from IBAN <<iban>>. Write a short reply confirming it was me.",
    "arp -a shows <<mac>> for <<ipv4>> but the switch says a different port. Is this ARP spoofing?",
    "Here is my resume header, make it look professional: <<person>> | <<city>>, <<country>> | <<phone_intl>> "
    "| <<email>>",
    "what's the time difference between <<city>> and <<city#2>>? I need to schedule a call with <<person>>.",
    "Compose a condolence note to the <<nrp>> community center on behalf of <<person>>.",
    "Is <<ssn>> a valid SSN format or did I mistype it?",
    "Our analytics dashboard shows a spike from <<ipv4>> and <<ipv4#2>>. Write a query to find all requests "
    "from these IPs.",
    "Please mask the following card in the receipt template: <<card>>. Only the last four digits should show.",
    "My mom <<person>> (born <<dob>>) needs a letter for her pension office in <<city>>.",
    "Book a table for two under the name <<person>> and text the confirmation to <<phone>>.",
    "I moved from <<country>> to <<country#2>> last year. As a <<nrp>> citizen, do I need to file taxes in both?",
    "The smart plug (MAC <<mac>>) won't connect to my WiFi. What are the reset steps?",
    "Write a short story about a <<nrp>> fisherman named <<first>> who lives near <<city>>.",
    "Our customer <<person>> called from <<phone_intl>> to update the address to <<street>>, <<city>>. "
    "Draft the CRM note.",
    "Please proofread: 'Dear <<person>>, your payment of $<<amount>> from card <<card>> was declined.'",
    "ip6tables shows <<ipv6>> hitting port 443 thousands of times per second. Is this a DDoS?",
    "My employee onboarding form asks for DOB (<<dob>>) and SSN (<<ssn>>). Is it legal for them to ask both?",
    "<<person>> here. Can you help me write an out-of-office reply that forwards urgent requests to <<email>>?",
    "<<email>> keeps bouncing with '550 user unknown'. What does that mean?",
    "<<city>> or <<city#2>>: which is better for a week-long vacation in October?",
    "Make an invoice for <<person>>, <<street>>, <<city>>, <<country>>. Payment to IBAN <<iban>> within 30 days.",
    "Debug: my regex for phone numbers doesn't match <<phone_intl>> but matches <<phone>>. "
    "Pattern is ^\\+?\\d{10,12}$",
    "Is it safe to share my IBAN (<<iban>>) with a buyer on a marketplace?",
    "For the wedding seating chart, put <<person>> next to <<person#2>>, both are <<nrp>> and prefer "
    "vegetarian food.",
    "Tell me about the history of the <<nrp>> community in <<city>>.",
    "a client called from <<phone>> asking for a refund to card <<card>>. what's our policy?",
    "netstat shows an established connection to <<ipv4>>:4444 that I didn't open. What should I do?",
    "User profile JSON: {\"name\": \"<<person>>\", \"email\": \"<<email>>\", \"date_of_birth\": \"<<dob>>\", "
    "\"last_ip\": \"<<ipv4>>\"}. Write a pydantic model for it.",
    "How should I reply to <<person>>? They wrote: 'I can't log in, my email is <<email>>'",
    "Format this address for a US envelope: <<person>>, <<street>>, <<city>>",
    "Generate a test case: login from <<ipv6>> with device <<mac>> should trigger MFA.",
    "Translate into German: 'My phone number is <<phone_intl>> and my email is <<email>>.'",
    "Our DHCP reservation for <<mac>> should map to <<ipv4>>. Write the dnsmasq line.",
    "My son <<first>> was born on <<dob>>. What age group is he in for the youth soccer league?",
    "Please calculate my age for the visa form. Date of birth: <<dob>>.",
    "Hey, it's <<first>>! Remind me what I told you about my trip to <<country>>?",
    "Create a support macro for callers who paste their SSN (like <<ssn>>) into the chat.",
    "Is the <<nrp>> vote expected to swing the next election in <<country>>?",
    "I'm <<person>>, a <<nrp>> engineer. Help me write a visa sponsorship request to my employer.",
    "Paid rent via card <<card>> but the landlord <<person>> says nothing arrived. How do I trace the payment?",
    "Need a SQL UPDATE setting iban='<<iban>>' for customer '<<person>>' in table accounts.",
    "SSN: <<ssn>> - does the first group of digits tell you which state issued it?",
    "Employee onboarding: <<person>>, SSN <<ssn>>, starts next Monday. Write the welcome email without the SSN.",
    "Which tax form do I need? My SSN is <<ssn>> and I freelance for two companies.",
    "My W-2 shows SSN <<ssn>> but my card says something else; how do I fix it with payroll?",
    "Credit freeze request for <<person>> (SSN <<ssn>>, born <<dob>>): draft the letter to the credit bureau.",
    "<<ssn>> is the social security number I used on my application; can I update it online?",
    "Which card network issued <<card>>? The checkout page shows no logo.",
    "Stripe test mode rejects <<card>>. Is it a real card? Which test cards should I use?",
    "I lost my wallet. Cards to cancel: <<card>> and my debit card. Who do I call first?",
    "There's a charge of $<<amount>> on <<card>> that I don't recognize. Write a fraud report.",
    "My Luhn check in python returns False for '<<card>>', what's wrong with my code?",
    "<<iban>> - is this account in the eurozone? The prefix confuses me.",
    "Set up a SEPA direct debit mandate for <<person>>, IBAN <<iban>>.",
    "Why does my banking app say 'invalid IBAN' for <<iban>>?",
    "Refund the deposit of EUR <<amount>> to <<iban>> (account holder <<person>>). Write the instruction.",
    "How do I find the vendor of MAC address <<mac>>?",
    "The router kicked device <<mac>> off the network. Write an ebtables rule to block it permanently.",
    "Add <<mac>> to the MAC allowlist in my UniFi controller, steps please.",
    "Wake-on-LAN packet to <<mac>> isn't waking the PC. What should I check?",
    "I was born <<dob>>. When can I start withdrawing from my 401(k) without penalty?",
    "Applicant: <<person>>; date of birth: <<dob>>; nationality: <<nrp>>. Summarize for HR.",
    "birthday: <<dob>>. what's my zodiac sign and chinese zodiac?",
    "Insurance quote for a driver born on <<dob>> living in <<city>>?",
    "Write a respectful holiday greeting for our <<nrp>> customers.",
    "My grandparents were <<nrp>> immigrants who settled in <<city>>. How can I research their records?",
    "Call forwarding to <<phone_intl>> isn't working on my Android. Which settings should I check?",
    "Text this to <<phone>>: 'running 10 min late, sorry!'",
    "<<person>> from <<city>> asked for a quote. Reply at <<email>> with our standard pricing, please.",
    "Who should I contact at the embassy in <<city>>? I'm a <<nrp>> national living in <<country>>.",
    "Our VPN assigned <<ipv6>> to my laptop but DNS still leaks through <<ipv4>>. How do I fix it?",
    "Remind <<first>> (<<phone>>) that the plumber comes tomorrow at 9.",
    "Our NAC flagged an unknown device <<mac>> on VLAN 20. How do I trace which switch port it's on?",
    "Can you write a python function that normalizes MAC addresses? Example input: <<mac>>",
    "Intune shows the Wi-Fi MAC as <<mac>> but the laptop reports a random one. Is MAC randomization on?",
    "tcpdump shows ARP replies from <<mac>> claiming to be the gateway. Explain what's happening.",
    "Set a static DHCP lease: host printer-2f, hwaddr <<mac>>, fixed address <<ipv4>>.",
    "My PS5's MAC is <<mac>>; the dorm network needs it registered. Where do I submit it?",
    "In the Meraki dashboard, client <<mac>> uses 40 GB a day. How do I throttle it?",
    "ip link set dev eth0 address <<mac>> - will changing this break anything?",
    "The Zeek conn log lists <<mac>> talking to <<ipv4>> at 3 a.m. every night. Suspicious?",
    "Which bluetooth device is <<mac>>? It keeps trying to pair with my car.",
    "The label printer sticker says 'MAC <<mac>>'; how do I find its IP from the router?",
    "Write an Ansible task that adds <<mac>> and <<mac#2>> to the allowed list on all access points.",
    "Our supplier changed their bank details to IBAN <<iban>>. How do I verify it's not invoice fraud?",
    "A SWIFT transfer to <<iban>> was returned with code AC01. What does it mean?",
    "Write a validation function for IBANs and test it with <<iban>>.",
    "Please translate into French: 'Please transfer the rent to my account <<iban>> by the 3rd.'",
    "Direct debit from IBAN <<iban>> bounced twice. What can the landlord <<person>> do?",
    "Write an email asking the customer to confirm that the refund account <<iban>> is correct.",
    "Is <<iban>> in the right format for a SEPA instant payment?",
    "Payroll file row: <<person>>;<<iban>>;EUR;<<amount>> - the bank rejects the file. Why?",
    "My employer in <<country>> needs my IBAN. I have <<iban>>; do they also need the BIC?",
    "A scammer asked me to send a deposit to <<iban>>. Can I report this account?",
    "Write a regex to find SSNs like <<ssn>> in log files so we can mask them.",
    "My son's SSN is <<ssn>>. Do I need it to open a 529 plan for him?",
    "Background check form: full name <<person>>, SSN <<ssn>>, current address <<street>>, <<city>>. "
    "Is this normal?",
    "The hospital billing department has my SSN as <<ssn>>; how do I ask them to remove it?",
    "ITIN vs SSN: I still have <<ssn>> from my old work visa. Can I keep using it?",
    "Someone opened a credit card with my SSN (<<ssn>>). Walk me through an identity theft report.",
    "Please double-check the SSN on this W-9 before I mail it: <<ssn>>",
    "Tenant application: <<person>>, DOB <<dob>>, SSN <<ssn>>, phone <<phone>>. Summarize for the landlord.",
    "Apple Pay won't add my card <<card>>. The bank says it's active. What else could it be?",
    "Order #48211 was paid with <<card>> but the shop says payment failed. Draft an email to support.",
    "Is it PCI compliant to log '<<card>>' in our debug output?",
    "Convert this card number to the masked format **** **** **** 1234: <<card>>",
    "My corporate card <<card>> was declined in <<country>>. Do I need to enable international use?",
    "The subscription renewal charged <<card>> twice. How do I get a refund from the merchant?",
    "Write a unit test where the payment form rejects an expired card like <<card>> (exp 01/20).",
    "Here's the card for the hotel deposit: <<card>>, name on card <<person>>. Write the booking email.",
    "Why does my BIN lookup say <<card>> is a prepaid card?",
    "fail2ban banned <<ipv4>> but the attacks continue from <<ipv4#2>>. Should I ban the whole /24?",
    "My home IP is <<ipv4>>. Why does whatismyip show a different address?",
    "Geo-locate <<ipv6>> for me - is it really in <<country>>?",
    "nmap -sV <<ipv4>> shows port 3389 open on my home PC. How do I close it?",
    "Add an allow rule for <<ipv4>> to this AWS security group JSON.",
    "The Kubernetes node <<ipv4>> is NotReady; the kubelet logs mention certificate errors.",
    "CloudFront logs show <<ipv6>> downloading the same 2 GB file 300 times. Should I block it?",
    "The DNS A record for our site points to <<ipv4>> but it should be the load balancer. How do I fix it?",
    "I'm <<nrp>> and my partner is <<nrp#2>>. Any tips for planning a wedding that respects both traditions?",
    "Recommend some <<nrp>> recipes for a potluck at work.",
    "My boss made a joke about <<nrp>> people in a meeting. How do I report it to HR?",
    "As a <<nrp>> voter in <<city>>, how do I register for the primary?",
    "Write a toast for my <<nrp>> grandmother's 90th birthday.",
    "Our <<nrp>> congregation needs a newsletter template. Can you draft one?",
    "Is it appropriate to serve alcohol at an event with mostly <<nrp>> guests?",
    "Translate a welcome sign for <<nrp>> refugees arriving in <<city>>.",
    "Passport renewal form: name <<person>>, date of birth <<dob>>, place of birth <<city>>. Check my entries.",
    "my birthday is <<dob>> - am I old enough to rent a car in <<country>>?",
    "Employee record: <<person>>, born <<dob>>, hired 2019. Calculate the years until retirement at 67.",
    "Born <<dob>> - which generation am I, millennial or gen Z?",
    "School enrollment needs the child's date of birth (<<dob>>) and a parent phone <<phone>>. Fill the form.",
    "Our CRM stores the DOB as '<<dob>>'. Write a SQL query to find customers whose birthday is this month.",
    "Whose number is <<phone>>? They called me five times today.",
    "WhatsApp says <<phone_intl>> is not on WhatsApp, but my friend <<first>> uses it daily.",
    "Set up 2FA: the SMS code goes to <<phone_intl>>, but I changed numbers. How do I update it?",
    "Please add <<person>> (<<email>>, mobile <<phone_intl>>) to the on-call rota.",
    "My Outlook rule should forward everything from <<email>> to <<email#2>>. Write the steps.",
    "Draft a reply to <<email>> declining the meeting politely.",
    "Unsubscribe requests from <<email>> keep failing. Is our List-Unsubscribe header wrong?",
    "Git commits show the author as <<person>> <<<email>>>. How do I rewrite history to change the email?",
)

_SECRET_TEMPLATES: tuple[str, ...] = (
    # generic token slot: <<key>> is one of _KEY_KINDS, <<key_label>> and <<key_env>> name it
    "I keep getting 401 Unauthorized even though my <<key_label>> is <<key>>. What am I doing wrong?",
    "Here's my .env, why doesn't dotenv load it?\n<<key_env>>=<<key>>\nDEBUG=true\nPORT=3000",
    "export <<key_env>>=\"<<key>>\"\nThe script still says the variable is not set. Why?",
    "My <<key_label>> <<key>> was accidentally pushed to a public repo. What should I do right now?",
    "Is this <<key_label>> still valid? <<key>>",
    "config.yaml:\nservice:\n  name: billing\n  token: <<key>>\n  timeout: 30\n"
    "Why does the loader say 'token' is invalid?",
    "docker run -e <<key_env>>=<<key>> -p 8080:8080 myapp:latest fails with exit code 1. Ideas?",
    "Write a GitHub Actions step that reads <<key_env>> from secrets instead of this hardcoded value: <<key>>",
    "python:\nclient = Client(api_key=\"<<key>>\")\nclient.list()  # raises PermissionError. Help?",
    "My teammate posted <<key>> in the #general channel. How do I rotate a <<key_label>>?",
    "terraform plan prints <<key>> in the output. How do I mark it sensitive?",
    "what service does this token belong to? <<key>>",
    "const headers = { 'X-Api-Key': '<<key>>' };\nfetch(url, { headers }) gives a CORS error. Why?",
    "Rotate <<key_env>> in Vault, current value <<key>>. Give me the vault kv commands.",
    "Log line: [auth] using token=<<key>> for tenant acme. Should we be logging this?",
    "Why does my CI fail with 'bad credentials'? I set <<key_env>> to <<key>> in the project settings.",
    "settings.py:\n<<key_env>> = '<<key>>'\nDEBUG = False\nHow do I move this into environment variables?",
    "Can you tell me the scopes of <<key>>? It's our <<key_label>> for the nightly job.",
    "kubectl create secret generic app-secrets --from-literal=<<key_env>>=<<key>> - is this visible in "
    "shell history?",
    "<<key>>\n^ that's the <<key_label>> from our old wiki page. Is it safe to delete the page?",
    # AWS
    "~/.aws/credentials:\n[default]\naws_access_key_id = <<aws_id>>\naws_secret_access_key = <<aws_secret>>\n"
    "region = us-east-1\nboto3 says InvalidClientTokenId. Why?",
    "export AWS_ACCESS_KEY_ID=<<aws_id>>\nexport AWS_SECRET_ACCESS_KEY=<<aws_secret>>\n"
    "aws s3 ls gives AccessDenied.",
    "s3 = boto3.client('s3', aws_access_key_id='<<aws_id>>', aws_secret_access_key='<<aws_secret>>')\n"
    "Is this okay inside a lambda?",
    "I found <<aws_id>> in our git history. How do I check in CloudTrail what it was used for?",
    "IAM user keys: <<aws_id>> / <<aws_secret>>. Write a policy that restricts them to one bucket.",
    "Access key ID <<aws_id>> shows as inactive; the secret was <<aws_secret>>. Can I reactivate it?",
    "docker-compose.yml env: AWS_ACCESS_KEY_ID: <<aws_id>> AWS_SECRET_ACCESS_KEY: <<aws_secret>> - why "
    "does the container not see them?",
    "Which AWS account owns the key <<aws_id>>? Is there an API for that?",
    "The secret access key <<aws_secret>> has a slash in it and my shell script breaks. How do I quote it?",
    # GitHub
    "git clone https://<<gh>>@github.com/acme/internal-tools.git still asks for a password.",
    "My GitHub PAT <<gh>> says 'bad credentials' but it should not expire until next year.",
    "Using Octokit with auth: '<<gh>>' in a Next.js API route - is that safe?",
    "remote: Invalid username or token. I used <<gh>> as the password for an https push. git config "
    "user.email is <<email>>.",
    "echo <<gh>> | gh auth login --with-token fails with 'missing required scope read:org'.",
    # GitLab
    "GitLab CI: curl --header \"PRIVATE-TOKEN: <<gl>>\" https://gitlab.example.com/api/v4/projects returns 401",
    "glab auth login --token <<gl>> gives 'insufficient_scope'.",
    "git remote set-url origin https://oauth2:<<gl>>@gitlab.com/team/app.git - is this ok on a shared runner?",
    # Slack
    "Slack bot: WebClient(token='<<slack>>').chat_postMessage(channel='#ops', text='hi') returns not_in_channel.",
    "Our slack token <<slack>> got revoked automatically. Why does Slack do that?",
    "SLACK_BOT_TOKEN=<<slack>> is in .env but bolt says 'invalid_auth'.",
    # Stripe
    "stripe.api_key = \"<<stripe>>\"\nstripe.Charge.create(...) fails with card_declined in production.",
    "I accidentally used the live key <<stripe>> in my test suite. Did we charge real cards?",
    "curl https://api.stripe.com/v1/customers -u <<stripe>>: returns an empty list, why?",
    # Google
    "<script src=\"https://maps.googleapis.com/maps/api/js?key=<<google>>&callback=initMap\"></script> "
    "shows 'for development purposes only'.",
    "How do I restrict my Google API key <<google>> to my own domain?",
    "A gemini request with key <<google>> returns 429 quota exceeded.",
    # OpenAI
    "from openai import OpenAI\nclient = OpenAI(api_key=\"<<openai>>\")\n"
    "returns 429 insufficient_quota. Billing is set up.",
    "OPENAI_API_KEY=<<openai>> works locally but not on Vercel.",
    "Is it okay to put <<openai>> in my React frontend code?",
    # JWT
    "Decode this JWT and tell me when it expires: <<jwt>>",
    "Authorization: Bearer <<jwt>>\nThe API answers 401 'signature verification failed'.",
    "Set-Cookie: session=<<jwt>>; HttpOnly; Secure\nwhy does the browser not send it back?",
    "jwt.decode('<<jwt>>', key, algorithms=['HS256']) raises ExpiredSignatureError.",
    "Our id_token is <<jwt>>; which claim holds the user's email?",
    # private keys
    "Why does ssh say 'invalid format' for this key?\n<<pem_openssh>>",
    "Convert this key to PKCS#8:\n<<pem>>",
    "nginx: SSL_CTX_use_PrivateKey failed for\n<<pem>>\nIs the key corrupted?",
    "Here's the deploy key we use in CI, can you tell me its type?\n<<pem>>",
    "<<pem>>\nDoes this key match the certificate I sent earlier?",
    # passwords
    "psql \"postgres://<<dbuser>>:<<pw>>@<<host>>:5432/<<dbname>>\" says password authentication failed.",
    "DATABASE_URL=postgresql://<<dbuser>>:<<pw>>@<<host>>/<<dbname>>\nSQLAlchemy cannot connect. Help",
    "mongodb+srv://<<dbuser>>:<<pw>>@cluster0.mongodb.net/<<dbname>>?retryWrites=true gives 'bad auth'.",
    "redis://:<<pw>>@<<host>>:6379/0 - NOAUTH error in celery.",
    "mysql -u <<dbuser>> -p'<<pw>>' -h <<host>> returns access denied.",
    "password=<<pw>> is in our config.ini under [smtp]. How do I secure it?",
    "spring.datasource.password: <<pw>>\nspring.datasource.username: <<dbuser>>\nWhy does Hikari time out?",
    "{\"username\": \"<<dbuser>>\", \"password\": \"<<pw>>\"} is being sent to /login but the server says 400.",
    "My wifi password is <<pw>> - generate a QR code string for it.",
    "amqp://<<dbuser>>:<<pw>>@<<host>>:5672/ connection refused in RabbitMQ.",
    "ADMIN_PASSWORD=<<pw>> is hardcoded in the Dockerfile. Better options?",
    "pgbouncer userlist.txt: \"<<dbuser>>\" \"<<pw>>\" - auth still fails with SCRAM.",
    "login: <<email>>\npassword: <<pw>>\nthe site says my account is locked. what now?",
    # generic secrets
    "client_secret: <<generic>>\nclient_id: web-portal\nOAuth says invalid_client.",
    "api_key=<<generic>>\nbase_url=https://api.internal.example\nrequests returns 401",
    "The webhook signing secret is <<generic>>. How do I verify the HMAC in Node?",
    "app.config['SECRET_KEY'] = '<<generic>>'  # is this long enough?",
    "HTTP dump:\nPOST /v1/events HTTP/1.1\nX-API-Key: <<generic>>\nContent-Type: application/json\n\n"
    "why is it rejected?",
    "secret: <<generic>>\nIs it a problem that this secret is stored in the Helm values file?",
    # bearer tokens
    "curl -H \"Authorization: Bearer <<bearer>>\" https://api.example.net/v2/me returns 403.",
    "GET /v1/orders HTTP/1.1\nHost: api.shop.example\nAuthorization: Bearer <<bearer>>\n"
    "Accept: application/json\n\nWhy 401?",
    "axios.get(url, { headers: { Authorization: `Bearer <<bearer>>` } }) works in Postman but not in the app.",
    "requests.get(url, headers={'Authorization': 'Bearer <<bearer>>'}) hangs forever.",
    "Our access token (Bearer <<bearer>>) expires too fast. How do I refresh it?",
    "Why does jwt.io show 'invalid signature' for <<jwt>> even though I pasted the right secret?",
    "localStorage.setItem('token', '<<jwt>>') - is this XSS-safe?",
    "The refresh flow returns a new token <<jwt>> but the old one still works. How do I revoke it?",
    # more private keys
    "Quick check: is this an ed25519 or an RSA key?\n<<pem_openssh>>",
    "GitHub rejects this deploy key with 'key is invalid':\n<<pem>>",
    "ssh-keygen -y -f id_key fails; here is the file:\n<<pem_openssh>>",
    "Please turn this PEM into a single line with \\n escapes for my .env file:\n<<pem>>",
    "openssl pkey -in key.pem -check says 'unable to load key':\n<<pem>>",
    "<<pem>>\nwhy does kubectl create secret tls complain that this key is not PEM?",
    "Our Jenkins credential contains:\n<<pem_openssh>>\nCan I reuse it for a second server?",
    "Vault wants the key inside JSON. Format this for me:\n<<pem>>",
    "Found this in a public gist - is it a real key?\n<<pem>>",
    "Terraform tls_private_key output:\n<<pem>>\nHow do I keep it out of the state file?",
    # more bearer tokens
    "http GET https://api.example.net/v1/users 'Authorization:Bearer <<bearer>>' gives 401 with httpie.",
    "Swagger UI works with my token but the Go client gets 401:\n"
    "req.Header.Set(\"Authorization\", \"Bearer <<bearer>>\")",
    "wget --header='Authorization: Bearer <<bearer>>' https://files.example.net/report.csv returns 403.",
    "grpcurl -H 'authorization: Bearer <<bearer>>' api.example.net:443 list fails with Unauthenticated.",
    "My Postman pre-request script sets Authorization: Bearer <<bearer>> - why is it not sent?",
    "WebSocket handshake: the proxy strips 'Authorization: Bearer <<bearer>>'. Why?",
    "kubeconfig user entry:\n  user:\n    token: <<bearer>>\nkubectl says 'Unauthorized'.",
    "The mobile app sends 'Authorization: Bearer <<bearer>>' on every request. Is HTTPS enough protection?",
    "fetch('/api/me', { headers: { 'Authorization': 'Bearer <<bearer>>' } }) returns 200 in Chrome but 401 "
    "in Safari.",
    "nginx logs show 'Authorization: Bearer <<bearer>>' in plain text. How do I scrub headers from logs?",
    "Error: invalid_token. The request header was Authorization: Bearer <<bearer>>",
    # more AWS pairs
    "[profile prod]\naws_access_key_id=<<aws_id>>\naws_secret_access_key=<<aws_secret>>\n"
    "How do I use this profile with terraform?",
    "GitLab CI variables: AWS_ACCESS_KEY_ID=<<aws_id>> AWS_SECRET_ACCESS_KEY=<<aws_secret>>. The deploy job "
    "says SignatureDoesNotMatch.",
    "Rotate these keys for the user ci-deployer: <<aws_id>> (secret <<aws_secret>>). What's the zero-downtime "
    "way?",
    # more passwords
    "jdbc:postgresql://<<host>>:5432/<<dbname>>?user=<<dbuser>>&password=<<pw>> times out from the container.",
    "The router admin password is <<pw>>. How do I change it to something stronger?",
    "git clone https://<<dbuser>>:<<pw>>@git.example.com/team/repo.git works but stores the password in "
    ".git/config. Fix?",
    "In my docker-compose: POSTGRES_PASSWORD: <<pw>> - the container keeps restarting.",
    "smtp_password = \"<<pw>>\"\nsmtp_user = \"noreply\"\nthe mail server says 'Username and Password not "
    "accepted'.",
    "I set my new laptop password to <<pw>>. Is it strong enough?",
    "ftp://<<dbuser>>:<<pw>>@files.example.net/upload fails in FileZilla.",
    "LDAP bind as cn=<<dbuser>>,dc=corp,dc=local with password <<pw>> returns error 49.",
)

_CLEAN_TEMPLATES: tuple[str, ...] = (
    "Can you explain what this git commit does?\ncommit <<sha>>\n    fix: handle empty response in parser",
    "git revert <<short_sha>> fails with a merge conflict in src/parser.py. How do I resolve it?",
    "The downloaded file's sha256 is <<sha256>> but the website lists a different one. Is it corrupted?",
    "Why does this return None?\n\ndef find(items, key):\n    for item in items:\n        if item.key == key:\n"
    "            return item\n\nprint(find([], 'a'))",
    "Upgrading from <<semver>> to <<semver#2>> broke our build with 'module not found'. What changed?",
    "What's the difference between uuid4 and uuid7? Example id from our db: <<uuid>>",
    "Traceback (most recent call last):\n  File \"app/main.py\", line 42, in <module>\n    main()\n"
    "  File \"app/main.py\", line 17, in main\n    data = json.loads(raw)\n"
    "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\nwhat does this mean?",
    "solve for x: 3x + 7 = 22, and show the steps please",
    "what's the derivative of x^2 * sin(x)? show the product rule",
    "can you recommend a good book about distributed systems for a beginner?",
    "how do i center a div horizontally and vertically with flexbox",
    "Is the <<product>> worth it for running Docker and VS Code?",
    "Write a bash one-liner that counts lines in all .py files recursively.",
    "Explain the CAP theorem in two sentences, with one example.",
    "SELECT user_id, COUNT(*) FROM orders GROUP BY user_id HAVING COUNT(*) > <<n>>; is slow on 10M rows. "
    "How do I index it?",
    "The request id <<uuid>> shows up twice in our logs with different latencies. How can a retry cause that?",
    "Compare the <<product>> and the <<product#2>> for a student on a budget.",
    "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\n"
    "npm ERR! peer react@\"^<<semver>>\" from some-lib@<<semver#2>>\nhow do i fix this?",
    "What is 17% of 2,340? And what is 2,340 divided by 17?",
    "integrate 1/(1+x^2) dx from 0 to 1 and explain why the answer is pi/4",
    "def check_password(plain: str, hashed: bytes) -> bool:\n    return bcrypt.checkpw(plain.encode(), hashed)\n"
    "Is this timing-safe?",
    "api_key = os.environ[\"API_KEY\"]\nif not api_key:\n    raise RuntimeError(\"API_KEY missing\")\n"
    "Is this a good pattern?",
    "curl -H \"Authorization: Bearer $TOKEN\" https://api.example.net/v1/me returns 401, and TOKEN is set in "
    "my shell.",
    "The docker image digest sha256:<<sha256>> differs between CI and my laptop. Why?",
    "Rust: error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable. Explain simply.",
    "kubectl rollout undo deployment/api --to-revision=<<n>> did nothing. Why?",
    "whats a good name for a golden retriever puppy? something short",
    "give me 5 ideas for a rainy weekend with kids at home",
    "Convert 72 degrees fahrenheit to celsius and show the formula.",
    "What does the HTTP status code <<http>> mean, and should a client retry it?",
    "Write a regex that matches semantic versions like <<semver>> or <<semver#2>>-rc.1",
    "Our Postgres 16 query plan shows a seq scan on a table with an index on created_at. Why would the planner "
    "ignore the index?",
    "in python, why is 0.1 + 0.2 != 0.3?",
    "Explain the big-O of quicksort in the best, average and worst case.",
    "java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"s\" is null\n"
    "\tat com.example.util.Strings.pad(Strings.java:31)\n\tat com.example.App.main(App.java:12)\n"
    "how do I fix this?",
    "The build <<uuid>> failed at step 'test' with exit code <<exit>>. What are common causes?",
    "write a haiku about kubernetes pods restarting at 3am",
    "Which is faster for reads, a B-tree or an LSM tree? And for writes?",
    "what is [[1, 2], [3, 4]] times [[5, 6], [7, 8]]?",
    "the tests pass locally but fail in CI with 'address already in use'. ideas?",
    "git log --oneline shows <<short_sha>>, <<short_sha#2>> and <<short_sha#3>>. How do I squash these three "
    "commits?",
    "how do I compute the sha256 of the string 'hello' in node?",
    "is the <<product>> or the <<product#2>> better for learning machine learning?",
    "What's new in Python 3.13 compared to 3.12?",
    "how does a zero-knowledge password manager work?",
    "Fix the typos in: 'the quick brwon fox jumsp over the lazy dog'",
    "ERROR 1045 (28000): Access denied for user (using password: YES). What does that mean in general?",
    "Explain the difference between TCP and UDP with an analogy.",
    "go: module example.com/tool@v<<semver>> found, but does not contain package example.com/tool/cmd",
    "Calculate the compound interest on 10,000 at 5% per year for 3 years.",
    "In React, why does useEffect run twice in development mode?",
    "What is the time complexity of inserting into a binary heap of size n?",
    "Ubuntu won't boot after a kernel update to 6.8.0-<<n>>-generic. What are the recovery steps?",
    "What's the collision probability of uuid4 for <<n>> million ids?",
    "error: object <<sha>> is corrupted. how do I repair the git repo?",
    "pip install fails: 'No matching distribution found for torch==<<semver>>'. Which python do I need?",
    "const total = items.reduce((sum, it) => sum + it.price * it.qty, 0);\nwhy is total NaN?",
    "summarize the plot of a detective novel in three sentences, no spoilers",
    "What's the best way to learn touch typing as an adult?",
    "password = getpass.getpass(\"Password: \")\nWhy does this hang when I run it from my IDE?",
    "Our p99 latency went from <<n>> ms to <<n#2>> ms after the deploy of <<short_sha>>. Where do I start?",
    "Explain what a hash collision is, and why sha256 is preferred over md5 today.",
)

# Entity slots: name -> entity type. Fillers (no entity) are handled by _Filler.
_ENTITY_SLOTS: Mapping[str, str] = {
    "person": "PERSON", "first": "PERSON",
    "city": "LOCATION", "street": "LOCATION", "country": "LOCATION",
    "nrp": "NRP",
    "email": "EMAIL_ADDRESS",
    "phone": "PHONE_NUMBER", "phone_intl": "PHONE_NUMBER",
    "card": "CREDIT_CARD",
    "ssn": "US_SSN",
    "iban": "IBAN_CODE",
    "ipv4": "IP_ADDRESS", "ipv6": "IP_ADDRESS",
    "mac": "MAC_ADDRESS",
    "dob": "DATE_OF_BIRTH",
    "aws_id": "AWS_ACCESS_KEY_ID", "aws_secret": "AWS_SECRET_KEY",
    "gh": "GITHUB_TOKEN", "gl": "GITLAB_TOKEN", "slack": "SLACK_TOKEN", "stripe": "STRIPE_KEY",
    "google": "GOOGLE_API_KEY", "openai": "OPENAI_API_KEY",
    "jwt": "JWT",
    "pem": "PRIVATE_KEY", "pem_openssh": "PRIVATE_KEY",
    "pw": "PASSWORD",
    "bearer": "BEARER_TOKEN",
    "generic": "GENERIC_SECRET",
}
# Slots whose entity type is the sample's target secret type (one of _KEY_KINDS).
_KEY_SLOT = "key"
_KEY_COMPANIONS = ("key_label", "key_env")

_SLOT_RE = re.compile(r"<<([a-z0-9_]+)(?:#(\d))?>>")


# --------------------------------------------------------------------------------------------------------
# Value generators.

def _iban_check_digits(country: str, bban: str) -> str:
    rearranged = bban + country + "00"
    number = int("".join(str(int(ch, 36)) for ch in rearranged))
    return f"{98 - number % 97:02d}"


# IBAN BBAN layouts: country -> sequence of (alphabet, length).
_IBAN_LAYOUTS: Mapping[str, tuple[tuple[str, int], ...]] = {
    "DE": ((string.digits, 18),),
    "GB": ((string.ascii_uppercase, 4), (string.digits, 14)),
    "FR": ((string.digits, 23),),
    "NL": ((string.ascii_uppercase, 4), (string.digits, 10)),
    "ES": ((string.digits, 20),),
    "IT": ((string.ascii_uppercase, 1), (string.digits, 10), (string.digits, 12)),
    "BE": ((string.digits, 12),),
    "IE": ((string.ascii_uppercase, 4), (string.digits, 14)),
    "PL": ((string.digits, 24),),
    "AT": ((string.digits, 16),),
    "CH": ((string.digits, 17),),
    "PT": ((string.digits, 21),),
}

# International numbers: (country calling code, national number pattern). In a pattern, N is any digit,
# X is 2-9, M is 4-9, other characters are literal; spaces show how people group the digits.
_INTL_PHONES: tuple[tuple[str, str], ...] = (
    ("44", "7MNN NNNNNN"), ("44", "20 7NNN NNNN"),              # UK mobile, London
    ("49", "15N NNNNNNNN"), ("49", "17N NNNNNNN"), ("49", "30 NNNNNNNN"),  # DE mobile, Berlin
    ("33", "6 NN NN NN NN"), ("33", "1 NN NN NN NN"),          # FR mobile, Paris
    ("91", "9NNNN NNNNN"), ("91", "8NNNN NNNNN"),              # IN mobile
    ("61", "4NN NNN NNN"),                                    # AU mobile
    ("55", "11 9NNNN-NNNN"),                                  # BR São Paulo mobile
    ("81", "90-NNNN-NNNN"), ("81", "80-NNNN-NNNN"),            # JP mobile
    ("34", "6NN NNN NNN"),                                    # ES mobile
    ("31", "6 NNNNNNNN"),                                     # NL mobile
    ("52", "55 NNNN NNNN"),                                   # MX Mexico City
    ("353", "8M NNN NNNN"),                                   # IE mobile
    ("1", "XNN XNN NNNN"),                                    # NANP
)
_PATTERN_DIGITS: Mapping[str, str] = {"N": string.digits, "X": "23456789", "M": "456789"}


def _ascii_fold(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", folded.lower())


class _Values:
    """Draws well-formed values from one seeded random source."""

    def __init__(self, rng: random.Random, locales: tuple[str, ...] = ()) -> None:
        self.rng = rng
        self.locales = locales
        self._names: dict[str, Faker] = {}
        for i, locale in enumerate(dict.fromkeys(_NAME_LOCALES + _STREET_LOCALES)):
            fake = Faker(locale)
            fake.seed_instance(rng.getrandbits(32) + i)
            self._names[locale] = fake
        # Extra locales are seeded after the default ones, so the default corpus does not change.
        for i, locale in enumerate(loc for loc in dict.fromkeys(locales) if loc not in self._names):
            fake = Faker(locale)
            fake.seed_instance(rng.getrandbits(32) + 100 + i)
            self._names[locale] = fake

    # -- helpers
    def _chars(self, alphabet: str, n: int) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def _faker(self, locales: tuple[str, ...], weights: tuple[int, ...]) -> Faker:
        return self._names[self.rng.choices(locales, weights)[0]]

    def _person_parts(self) -> tuple[str, str]:
        fake = (self._names[self.rng.choice(self.locales)] if self.locales
                else self._faker(_NAME_LOCALES, _NAME_WEIGHTS))
        return fake.first_name(), fake.last_name()

    # -- PII
    def person(self, ctx: dict[str, str]) -> str:
        first, last = self._person_parts()
        ctx.setdefault("_person_parts", f"{first}\t{last}")
        return f"{first} {last}"

    def first(self, ctx: dict[str, str]) -> str:
        first, _ = self._person_parts()
        return first

    def city(self, ctx: dict[str, str]) -> str:
        if self.locales:  # half the cities from the locales' own lists (real towns, many small)
            local = [loc for loc in self.locales if loc in _REAL_CITY_LOCALES]
            if local and self.rng.random() < 0.5:
                return self._names[self.rng.choice(local)].city()
        if self.rng.random() < 0.15:
            return self._names["de_DE"].city()
        return self.rng.choice(_CITIES)

    def street(self, ctx: dict[str, str]) -> str:
        fake = (self._names[self.rng.choice(self.locales)] if self.locales
                else self._faker(_STREET_LOCALES, _STREET_WEIGHTS))
        return " ".join(fake.street_address().split())

    def country(self, ctx: dict[str, str]) -> str:
        return self.rng.choice(_COUNTRIES)

    def nrp(self, ctx: dict[str, str]) -> str:
        return self.rng.choice(_NRPS)

    def email(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        parts = ctx.get("_person_parts")
        if parts and rng.random() < 0.6 and "_email_from_person" not in ctx:
            ctx["_email_from_person"] = "1"
            first, last = (_ascii_fold(p) for p in parts.split("\t"))
            local = rng.choice((f"{first}.{last}", f"{first[:1]}{last}", f"{first}_{last}", f"{last}.{first}"))
        else:
            first, last = (_ascii_fold(p) for p in self._person_parts())
            local = rng.choice((f"{first}.{last}", f"{first}{last}{rng.randint(1, 99)}", f"{first[:1]}.{last}",
                                f"{first}{rng.randint(1970, 2005)}"))
        domain = rng.choice(_FREE_MAIL if rng.random() < 0.55 else _WORK_MAIL)
        return f"{local or 'user'}@{domain}"

    def phone(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        area = rng.choice(_US_AREA_CODES)
        exchange = str(rng.randint(2, 9)) + self._chars(string.digits, 2)
        while exchange[1:] == "11":
            exchange = str(rng.randint(2, 9)) + self._chars(string.digits, 2)
        line = self._chars(string.digits, 4)
        fmt = rng.choice((
            "({a}) {e}-{l}", "({a}) {e}-{l}", "{a}-{e}-{l}", "{a}.{e}.{l}", "{a} {e} {l}", "{a}{e}{l}",
            "+1 {a} {e} {l}", "+1-{a}-{e}-{l}", "1 ({a}) {e}-{l}",
        ))
        return fmt.format(a=area, e=exchange, l=line)

    def phone_intl(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        code, pattern = rng.choice(_INTL_PHONES)
        national = "".join(rng.choice(_PATTERN_DIGITS[ch]) if ch in _PATTERN_DIGITS else ch for ch in pattern)
        style = rng.random()
        if style < 0.45:
            return f"+{code} {national}"
        if style < 0.85:
            return f"+{code}" + re.sub(r"[^0-9]", "", national)
        return f"+{code}-" + re.sub(r"[ ]", "-", national)

    def card(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        brand = rng.choice(("visa", "visa", "mastercard", "mastercard", "amex", "discover"))
        if brand == "visa":
            payload = "4" + self._chars(string.digits, 14)
        elif brand == "mastercard":
            prefix = str(rng.randint(51, 55)) if rng.random() < 0.7 else str(rng.randint(2221, 2720))
            payload = prefix + self._chars(string.digits, 15 - len(prefix))
        elif brand == "amex":
            payload = rng.choice(("34", "37")) + self._chars(string.digits, 12)
        else:
            payload = "6011" + self._chars(string.digits, 11)
        number = payload + luhn_check_digit(payload)
        sep = rng.choice((" ", " ", "-", ""))
        groups = [number[:4], number[4:10], number[10:]] if len(number) == 15 else [
            number[i:i + 4] for i in range(0, 16, 4)]
        return sep.join(groups)

    def ssn(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        area = rng.choice([a for a in range(1, 900) if a != 666])
        group, serial = rng.randint(1, 99), rng.randint(1, 9999)
        sep = rng.choice(("-", "-", "-", " "))
        return f"{area:03d}{sep}{group:02d}{sep}{serial:04d}"

    def iban(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        country = rng.choice(tuple(_IBAN_LAYOUTS))
        bban = "".join(self._chars(alpha, n) for alpha, n in _IBAN_LAYOUTS[country])
        compact = country + _iban_check_digits(country, bban) + bban
        if rng.random() < 0.5:
            return " ".join(compact[i:i + 4] for i in range(0, len(compact), 4))
        return compact

    def ipv4(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        if rng.random() < 0.25:
            return rng.choice((f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
                               f"192.168.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
                               f"172.{rng.randint(16, 31)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"))
        return self._names["en_US"].ipv4_public()

    def ipv6(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        groups = [f"{rng.getrandbits(16):x}" for _ in range(8)]
        groups[0] = rng.choice(("2001", "2a02", "2600", "2a01", "2c0f", "2406"))
        style = rng.random()
        if style < 0.4:  # compressed run of zeros, as ip -6 addr prints it
            cut = rng.randint(2, 4)
            return ":".join(groups[:cut]) + "::" + ":".join(groups[cut + 2 + rng.randint(0, 1):])
        if style < 0.7:
            return ":".join(groups)
        return ":".join(g.zfill(4) for g in groups)

    def mac(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        octets = [f"{rng.getrandbits(8):02x}" for _ in range(6)]
        style = rng.random()
        if style < 0.45:
            return ":".join(octets)
        if style < 0.75:
            return "-".join(octets).upper()
        if style < 0.9:
            return ":".join(octets).upper()
        joined = "".join(octets)
        return ".".join(joined[i:i + 4] for i in range(0, 12, 4))

    def dob(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        year, month, day = rng.randint(1940, 2006), rng.randint(1, 12), rng.randint(1, 28)
        name = _MONTHS[month - 1]
        return rng.choice((
            f"{name} {day}, {year}", f"{day} {name} {year}", f"{month:02d}/{day:02d}/{year}",
            f"{year}-{month:02d}-{day:02d}", f"{name[:3]} {day} {year}", f"{day:02d}.{month:02d}.{year}",
            f"{month}/{day}/{year}",
        ))

    # -- secrets
    def aws_id(self, ctx: dict[str, str]) -> str:
        return self.rng.choice(("AKIA", "AKIA", "AKIA", "ASIA")) + self._chars(_B32, 16)

    def aws_secret(self, ctx: dict[str, str]) -> str:
        return self._chars(_ALNUM + "/+", 40)

    def gh(self, ctx: dict[str, str]) -> str:
        if self.rng.random() < 0.6:
            return self.rng.choice(("ghp_", "ghp_", "ghp_", "gho_", "ghu_", "ghs_")) + self._chars(_ALNUM, 36)
        return "github_pat_" + self._chars(string.digits + string.ascii_uppercase, 22) + "_" + self._chars(
            _ALNUM, 59)

    def gl(self, ctx: dict[str, str]) -> str:
        return "glpat-" + self._chars(_B64URL, 20)

    def slack(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        kind = rng.choice(("xoxb", "xoxb", "xoxp", "xoxa", "xoxs"))
        ids = "-".join(self._chars(string.digits, rng.randint(10, 13)) for _ in range(2 if kind == "xoxb" else 3))
        tail = self._chars(_ALNUM, 24) if kind == "xoxb" else self._chars(_HEX, 32)
        return f"{kind}-{ids}-{tail}"

    def stripe(self, ctx: dict[str, str]) -> str:
        if self.rng.random() < 0.5:
            return "sk_live_" + self._chars(_ALNUM, 24)
        return "sk_live_51" + self._chars(_ALNUM, 97)

    def google(self, ctx: dict[str, str]) -> str:
        return "AIza" + self._chars(_B64URL, 35)

    def openai(self, ctx: dict[str, str]) -> str:
        if self.rng.random() < 0.4:
            return "sk-" + self._chars(_ALNUM, 20) + "T3BlbkFJ" + self._chars(_ALNUM, 20)
        return "sk-proj-" + self._chars(_B64URL, 56) + "T3BlbkFJ" + self._chars(_B64URL, 56)

    def jwt(self, ctx: dict[str, str]) -> str:
        rng = self.rng

        def b64(data: bytes) -> str:
            return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

        alg = rng.choice(("HS256", "HS256", "ES256"))
        iat = rng.randint(1_650_000_000, 1_760_000_000)
        claims = {"sub": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "iat": iat,
                  "exp": iat + rng.choice((900, 3600, 86400)), "scope": rng.choice(("read", "read write", "admin"))}
        header = b64(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
        payload = b64(json.dumps(claims, separators=(",", ":")).encode())
        signature = b64(rng.randbytes(32 if alg == "HS256" else 64))
        return f"{header}.{payload}.{signature}"

    def pem(self, ctx: dict[str, str]) -> str:
        kind = self.rng.choice(("RSA", "EC", "OPENSSH", "PKCS8"))
        return self._pem(kind)

    def pem_openssh(self, ctx: dict[str, str]) -> str:
        return self._pem("OPENSSH")

    def _pem(self, kind: str) -> str:
        # Real DER/openssh prefixes, random bodies; RSA bodies are cut short to keep prompts under MAX_CHARS.
        prefix, label, lines, width, tail = {
            "RSA": ("MIIEpAIBAAKCAQEA", "RSA PRIVATE KEY", 4, 64, 24),
            "EC": ("MHcCAQEEI", "EC PRIVATE KEY", 2, 64, 36),
            "OPENSSH": ("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
                        "OPENSSH PRIVATE KEY", 3, 70, 20),
            "PKCS8": ("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "PRIVATE KEY", 3, 64, 28),
        }[kind]
        body = prefix + self._chars(_B64, lines * width - len(prefix))
        body_lines = [body[i:i + width] for i in range(0, len(body), width)]
        body_lines.append(self._chars(_B64, tail - 1) + "=")
        return f"-----BEGIN {label}-----\n" + "\n".join(body_lines) + f"\n-----END {label}-----"

    def pw(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        style = rng.random()
        if style < 0.4:
            word = rng.choice(_WORDS)
            return word.capitalize() + str(rng.randint(10, 9999)) + rng.choice(_PW_SYMBOLS) + self._chars(_ALNUM, 3)
        if style < 0.75:
            return self._chars(_ALNUM + _PW_SYMBOLS, rng.randint(12, 20))
        return "-".join(rng.sample(_WORDS, 4)) + str(rng.randint(1, 99))

    def bearer(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        style = rng.random()
        if style < 0.4:
            return self._chars(_ALNUM, rng.randint(32, 48))
        if style < 0.7:
            return "ya29.a0" + self._chars(_B64URL, 80)
        return self._chars(_HEX, 40)

    def generic(self, ctx: dict[str, str]) -> str:
        rng = self.rng
        style = rng.random()
        if style < 0.35:
            return self._chars(_HEX, 32)
        if style < 0.65:
            return self._chars(_ALNUM, 40)
        if style < 0.85:
            return base64.b64encode(rng.randbytes(32)).decode()
        return "key-" + self._chars(_HEX, 32)

    def key(self, ctx: dict[str, str], entity_type: str) -> str:
        maker: Callable[[dict[str, str]], str] = {
            "GITHUB_TOKEN": self.gh, "GITLAB_TOKEN": self.gl, "SLACK_TOKEN": self.slack,
            "STRIPE_KEY": self.stripe, "GOOGLE_API_KEY": self.google, "OPENAI_API_KEY": self.openai,
            "GENERIC_SECRET": self.generic, "JWT": self.jwt, "AWS_ACCESS_KEY_ID": self.aws_id,
            "AWS_SECRET_KEY": self.aws_secret,
        }[entity_type]
        return maker(ctx)

    # -- fillers (never personal data, never secrets)
    def filler(self, name: str, ctx: dict[str, str]) -> str:
        rng = self.rng
        if name == "key_label":
            return rng.choice(_KEY_KINDS[ctx["_key_type"]][0])
        if name == "key_env":
            return rng.choice(_KEY_KINDS[ctx["_key_type"]][1])
        if name == "sha":
            return self._chars(_HEX, 40)
        if name == "short_sha":
            return self._chars(_HEX, rng.choice((7, 7, 8, 10)))
        if name == "sha256":
            return self._chars(_HEX, 64)
        if name == "uuid":
            return str(uuid.UUID(int=rng.getrandbits(128), version=4))
        if name == "semver":
            return f"{rng.randint(0, 19)}.{rng.randint(0, 40)}.{rng.randint(0, 30)}"
        if name == "n":
            return str(rng.choice((3, 5, 12, 40, 101, 250, 480, 1200)))
        if name == "amount":
            return f"{rng.randint(12, 4999):,}.{rng.randint(0, 99):02d}"
        choices = {
            "product": _PRODUCTS, "dbuser": _DB_USERS, "dbname": _DB_NAMES, "host": _HOSTS,
            "http": _HTTP_CODES, "exit": _EXIT_CODES,
        }.get(name)
        if choices is None:
            raise KeyError(f"unknown template slot <<{name}>>")
        return rng.choice(choices)


# --------------------------------------------------------------------------------------------------------
# Assembly.

@dataclass(frozen=True, slots=True)
class _Template:
    template_id: str
    category: str
    text: str
    entity_types: frozenset[str]  # the types its slots can produce


def _index_templates() -> tuple[_Template, ...]:
    out = []
    for category, texts in ((PII, _PII_TEMPLATES), (SECRET, _SECRET_TEMPLATES), (CLEAN, _CLEAN_TEMPLATES)):
        for i, text in enumerate(texts):
            types: set[str] = set()
            for name, _ in _SLOT_RE.findall(text):
                if name == _KEY_SLOT:
                    types.update(_KEY_KINDS)
                elif name in _ENTITY_SLOTS:
                    types.add(_ENTITY_SLOTS[name])
            out.append(_Template(f"{category}-{i:03d}", category, text, frozenset(types)))
    return tuple(out)


_TEMPLATES = _index_templates()


def _fill(template: _Template, values: _Values, target: str | None) -> tuple[str, tuple[Entity, ...]]:
    ctx: dict[str, str] = {}
    if _KEY_SLOT in {name for name, _ in _SLOT_RE.findall(template.text)}:
        ctx["_key_type"] = target if target in _KEY_KINDS else values.rng.choice(tuple(_KEY_KINDS))
    filled: dict[tuple[str, str], str] = {}
    entities: list[Entity] = []

    def draw(match: re.Match[str]) -> str:
        name, idx = match.group(1), match.group(2) or ""
        if (name, idx) in filled:
            return filled[(name, idx)]
        taken = {v for (n, _), v in filled.items() if n == name}
        for _ in range(20):  # a second value of one kind must differ from the first
            if name == _KEY_SLOT:
                value, entity_type = values.key(ctx, ctx["_key_type"]), ctx["_key_type"]
            elif name in _ENTITY_SLOTS:
                value, entity_type = getattr(values, name)(ctx), _ENTITY_SLOTS[name]
            else:
                value, entity_type = values.filler(name, ctx), None
            if value not in taken:
                break
        filled[(name, idx)] = value
        if entity_type is not None:
            entities.append(Entity(entity_type, value))
        return value

    text = _SLOT_RE.sub(draw, template.text)
    return text, tuple(dict.fromkeys(entities))


def _dress(text: str, rng: random.Random) -> str:
    """Maybe put a neutral lead-in before and a follow-up after the prompt."""
    if rng.random() < _DRESS_P:
        text = rng.choice(_LEAD_INS) + rng.choice((" ", "\n", "\n\n")) + text
    if rng.random() < _DRESS_P:
        text = text + rng.choice((" ", "\n", "\n\n")) + rng.choice(_FOLLOW_UPS)
    return text


def _category_counts(n: int, mix: Mapping[str, float]) -> dict[str, int]:
    unknown = set(mix) - set(CATEGORIES)
    if unknown:
        raise ValueError(f"unknown corpus categories in mix: {sorted(unknown)}")
    total = sum(mix.values())
    if total <= 0:
        raise ValueError("corpus mix must have a positive total")
    counts = {c: int(n * mix.get(c, 0.0) / total) for c in CATEGORIES}
    # hand the remainder to the categories with the largest fractional parts, in CATEGORIES order
    rest = n - sum(counts.values())
    by_fraction = sorted(CATEGORIES, key=lambda c: -(n * mix.get(c, 0.0) / total - counts[c]))
    for c in by_fraction[:rest]:
        counts[c] += 1
    return counts


def generate(n: int, seed: int, mix: Mapping[str, float] | None = None,
             locales: tuple[str, ...] = ()) -> list[Sample]:
    """Return ``n`` samples, the same for the same ``(n, seed, mix, locales)``.

    ``locales`` (Faker locale names, e.g. WORLD_LOCALES) draws every name and street from those locales in
    equal shares and half the cities from their own town lists, a harder test of names and places than the
    default mix (mostly en_US names, well-known cities); left empty, the corpus is the default one.

    The mix defaults to DEFAULT_MIX. Within PII and secret samples, each sample targets one entity type in
    turn (a seeded shuffle of the types, cycled), so that every type appears once the category holds at
    least as many samples as it has types (with the default mix, from n = 44); multi-value templates add
    other types on top. Templates are drawn among those that can embed the target type.
    """
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    rng = random.Random(seed)
    values = _Values(rng, tuple(locales))
    counts = _category_counts(n, DEFAULT_MIX if mix is None else mix)
    by_category = {c: [t for t in _TEMPLATES if t.category == c] for c in CATEGORIES}
    targets = {PII: sorted(PII_ENTITY_TYPES), SECRET: sorted(SECRET_ENTITY_TYPES)}
    for types in targets.values():
        rng.shuffle(types)

    drafts: list[tuple[str, str, tuple[Entity, ...], str]] = []
    for category in CATEGORIES:
        cycle = itertools.cycle(targets[category]) if category in targets else itertools.repeat(None)
        for _ in range(counts[category]):
            target = next(cycle)
            pool = [t for t in by_category[category] if target is None or target in t.entity_types]
            for _attempt in range(50):
                template = rng.choice(pool)
                text, entities = _fill(template, values, target)
                text = _dress(text, rng)
                if MIN_CHARS <= len(text) <= MAX_CHARS:
                    break
            else:
                raise RuntimeError(f"no template of {category}/{target} fits {MIN_CHARS}-{MAX_CHARS} characters")
            drafts.append((category, text, entities, template.template_id))

    rng.shuffle(drafts)
    return [Sample(f"{category}-{i:05d}", category, text, entities, template_id)
            for i, (category, text, entities, template_id) in enumerate(drafts)]
