def main():
  s = input().strip()
  print("".join(str(10-int(c)) for c in s))


if __name__=="__main__":
  main()
