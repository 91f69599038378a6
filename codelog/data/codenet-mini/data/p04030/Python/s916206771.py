def main():
  S = input().strip()
  ans = ""
  for C in S:
    if C in "01":
      ans = ans + C
    elif len(ans) != 0:
      ans = ans[:-1]
  print(ans)
main()