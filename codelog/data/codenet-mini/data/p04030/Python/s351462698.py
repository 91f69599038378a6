# ABC043 B - Unhappy Hacking (ABC Edit)
def main():
  s = input()
  ans = []
  for c in s:
    if c == "B":
      if ans:
        ans.pop()
    else:
      ans.append(c)
  print("".join(ans))  # edge case


if __name__ == "__main__":
  main()
