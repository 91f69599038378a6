import sys

def main():
  s = sys.stdin.readline().rstrip()
  ans = []
  for c in s:  # TODO
    if c == "B":
      if ans:
        ans.pop()
    else:
      ans.append(c)
  print("".join(ans))


if __name__ == "__main__":
  main()
