import sys

def compute():
  val = sys.stdin.readline().strip()
  ans = ""
  for c in val:
    if c == "1":
      ans += "9"
    elif c == "9":
      ans += "1"
    else:
      ans += c
  print(ans)


compute()
