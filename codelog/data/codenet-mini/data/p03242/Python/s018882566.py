def main():
    S = input().strip()
    print("".join("9" if C == "1" else "1" for C in S))


if __name__ == "__main__":
    main()
