def main():
  ret = int(input())
  line = input()
  a = [int(val) for val in line.split(" ")]
  acc = []
  while a:
    acc.append(a.pop())
  print(" ".join(map(str,acc)))
if __name__ == "__main__":
  main()
