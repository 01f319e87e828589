"""Hand-made PokerStars histories for the all-in tests (the collections are what
settle gives for the run-out written; the EV tests never read them)."""

OMAHA_HILO_FLOP = """\
PokerStars Hand #900000001:  Omaha Hi/Lo Pot Limit ($0.50/$1 USD) - 2020/01/01 10:00:00 ET
Table 'Test I' 6-max Seat #1 is the button
Seat 1: Ann ($20 in chips)
Seat 2: Bob ($50 in chips)
Seat 3: Cat ($50 in chips)
Bob: posts small blind $0.50
Cat: posts big blind $1
*** HOLE CARDS ***
Dealt to Ann [Ah Ad 2c 3s]
Ann: raises $2.50 to $3.50
Bob: folds
Cat: calls $2.50
*** FLOP *** [7c 8d 5h]
Cat: bets $5
Ann: raises $11.50 to $16.50 and is all-in
Cat: calls $11.50
*** TURN *** [7c 8d 5h] [Ts]
*** RIVER *** [7c 8d 5h Ts] [Kc]
*** SHOW DOWN ***
Cat: shows [Ks Kd Qh Jh] (HI: three of a kind, Kings)
Ann: shows [Ah Ad 2c 3s] (HI: a pair of Aces; LO: 7,5,3,2,A)
Cat collected $19.75 from pot
Ann collected $19.75 from pot
*** SUMMARY ***
Total pot $40.50 | Rake $1
Board [7c 8d 5h Ts Kc]
Seat 1: Ann (button) showed [Ah Ad 2c 3s] and won ($19.75)
Seat 2: Bob (small blind) folded before Flop
Seat 3: Cat (big blind) showed [Ks Kd Qh Jh] and won ($19.75)
"""

HOLDEM_SIDE_POT = """\
PokerStars Hand #900000002: Tournament #77, $10+$1 USD Hold'em No Limit - Level I (10/20) - 2020/01/01 10:00:00 ET
Table '77 1' 9-max Seat #3 is the button
Seat 1: Ann (500 in chips)
Seat 2: Bob (1500 in chips)
Seat 3: Cat (3000 in chips)
Ann: posts small blind 10
Bob: posts big blind 20
*** HOLE CARDS ***
Cat: calls 20
Ann: calls 10
Bob: checks
*** FLOP *** [2c 7d 9h]
Ann: bets 480 and is all-in
Bob: raises 1000 to 1480 and is all-in
Cat: calls 1480
*** TURN *** [2c 7d 9h] [Ks]
*** RIVER *** [2c 7d 9h Ks] [3d]
*** SHOW DOWN ***
Ann: shows [Ah Kh] (a pair of Kings)
Bob: shows [9c 9d] (three of a kind, Nines)
Cat: shows [7c 7h] (three of a kind, Sevens)
Bob collected 2000 from side pot
Bob collected 1500 from main pot
*** SUMMARY ***
Total pot 3500 Main pot 1500. Side pot 2000. | Rake 0
Board [2c 7d 9h Ks 3d]
Seat 1: Ann (small blind) showed [Ah Kh] and lost with a pair of Kings
Seat 2: Bob (big blind) showed [9c 9d] and won (3500) with three of a kind, Nines
Seat 3: Cat (button) showed [7c 7h] and lost with three of a kind, Sevens
"""


def stud_sixth(game_text: str, hand_id: str, collected: dict[str, int]) -> str:
    """Heads-up stud (hi/lo or razz) all-in on 6th street; ``collected`` by name."""
    collect = "\n".join(f"{name} collected {v} from pot" for name, v in collected.items())
    ann_first = True  # stud: the 3d brings in, the kings showing act first
    first, second = "Ann", "Bob"
    return f"""\
PokerStars Hand #{hand_id}: Tournament #78, $10+$1 USD {game_text} Limit - Level I (40/80) - 2020/01/01 10:00:00 ET
Table '78 1' 8-max
Seat 1: Ann (295 in chips)
Seat 2: Bob (1000 in chips)
Ann: posts the ante 5
Bob: posts the ante 5
*** 3rd STREET ***
Dealt to Ann [As 2s 3d]
Dealt to Bob [Kh]
{first}: brings in for 10
{second}: calls 10
*** 4th STREET ***
Dealt to Ann [As 2s 3d] [4c]
Dealt to Bob [Kh] [Kd]
{'Bob' if ann_first else 'Ann'}: bets 40
{'Ann' if ann_first else 'Bob'}: calls 40
*** 5th STREET ***
Dealt to Ann [As 2s 3d 4c] [9s]
Dealt to Bob [Kh Kd] [5c]
{'Bob' if ann_first else 'Ann'}: bets 80
{'Ann' if ann_first else 'Bob'}: calls 80
*** 6th STREET ***
Dealt to Ann [As 2s 3d 4c 9s] [8h]
Dealt to Bob [Kh Kd 5c] [Qs]
Bob: bets 80
Ann: raises 80 to 160 and is all-in
Bob: calls 80
*** RIVER ***
Dealt to Ann [As 2s 3d 4c 9s 8h] [Td]
*** SHOW DOWN ***
Ann: shows [As 2s 3d 4c 9s 8h Td] (Lo: 8,4,3,2,A)
Bob: shows [Jc Jd Kh Kd 5c Qs 6h] (two pair, Kings and Jacks)
{collect}
*** SUMMARY ***
Total pot 590 | Rake 0
Seat 1: Ann showed [As 2s 3d 4c 9s 8h Td] and won
Seat 2: Bob showed [Jc Jd Kh Kd 5c Qs 6h] and won
"""


STUD_HILO_SIXTH = stud_sixth("7 Card Stud Hi/Lo", "900000003", {"Ann": 295, "Bob": 295})
RAZZ_SIXTH = """\
PokerStars Hand #900000004: Tournament #78, $10+$1 USD Razz Limit - Level I (40/80) - 2020/01/01 10:00:00 ET
Table '78 1' 8-max
Seat 1: Ann (295 in chips)
Seat 2: Bob (1000 in chips)
Ann: posts the ante 5
Bob: posts the ante 5
*** 3rd STREET ***
Dealt to Ann [As 2s 3d]
Dealt to Bob [Kh]
Bob: brings in for 10
Ann: calls 10
*** 4th STREET ***
Dealt to Ann [As 2s 3d] [4c]
Dealt to Bob [Kh] [7c]
Ann: bets 40
Bob: calls 40
*** 5th STREET ***
Dealt to Ann [As 2s 3d 4c] [9s]
Dealt to Bob [Kh 7c] [2c]
Ann: bets 80
Bob: calls 80
*** 6th STREET ***
Dealt to Ann [As 2s 3d 4c 9s] [8h]
Dealt to Bob [Kh 7c 2c] [3c]
Ann: bets 80
Bob: raises 80 to 160
Ann: calls 80 and is all-in
*** RIVER ***
Dealt to Ann [As 2s 3d 4c 9s 8h] [Td]
*** SHOW DOWN ***
Ann: shows [As 2s 3d 4c 9s 8h Td] (Lo: 8,4,3,2,A)
Bob: shows [5d 6d Kh 7c 2c 3c 4d] (Lo: 6,5,4,3,2)
Bob collected 590 from pot
*** SUMMARY ***
Total pot 590 | Rake 0
Seat 1: Ann showed [As 2s 3d 4c 9s 8h Td] and lost
Seat 2: Bob showed [5d 6d Kh 7c 2c 3c 4d] and won (590)
"""

# Run twice from preflop with a side pot: main pot 1503 (odd: the first run takes 752),
# side pot 1998.  First board: Ann's aces take the main half, Bob and Cat tie the side
# half (999: Bob, first clockwise from the button, gets the odd chip).  Second board:
# Bob and Cat tie both halves (751: 376/375; 999: 500/499).
HOLDEM_RUN_TWICE = """\
PokerStars Hand #900000005: Tournament #79, $10+$1 USD Hold'em No Limit - Level I (10/20) - 2020/01/01 10:00:00 ET
Table '79 1' 9-max Seat #3 is the button
Seat 1: Ann (501 in chips)
Seat 2: Bob (1500 in chips)
Seat 3: Cat (3000 in chips)
Ann: posts small blind 10
Bob: posts big blind 20
*** HOLE CARDS ***
Cat: calls 20
Ann: raises 481 to 501 and is all-in
Bob: raises 999 to 1500 and is all-in
Cat: calls 1480
*** FIRST FLOP *** [As 2c 7d]
*** FIRST TURN *** [As 2c 7d] [Ts]
*** FIRST RIVER *** [As 2c 7d Ts] [3s]
*** SECOND FLOP *** [8c 8d 2h]
*** SECOND TURN *** [8c 8d 2h] [3h]
*** SECOND RIVER *** [8c 8d 2h 3h] [4c]
*** FIRST SHOW DOWN ***
Ann: shows [Ah Kh] (a pair of Aces)
Bob: shows [9c 9d] (a pair of Nines)
Cat: shows [9s 9h] (a pair of Nines)
Bob collected 500 from side pot
Cat collected 499 from side pot
Ann collected 752 from main pot
*** SECOND SHOW DOWN ***
Ann: shows [Ah Kh] (a pair of Eights)
Bob: shows [9c 9d] (two pair, Nines and Eights)
Cat: shows [9s 9h] (two pair, Nines and Eights)
Bob collected 500 from side pot
Cat collected 499 from side pot
Bob collected 376 from main pot
Cat collected 375 from main pot
*** SUMMARY ***
Total pot 3501 Main pot 1503. Side pot 1998. | Rake 0
Hand was run twice
FIRST Board [As 2c 7d Ts 3s]
SECOND Board [8c 8d 2h 3h 4c]
Seat 1: Ann (small blind) showed [Ah Kh] and won (752) with a pair of Aces, and lost with a pair of Eights
Seat 2: Bob (big blind) showed [9c 9d] and won (500) with a pair of Nines, and won (876) with two pair, Nines and Eights
Seat 3: Cat (button) showed [9s 9h] and won (499) with a pair of Nines, and won (874) with two pair, Nines and Eights
"""
